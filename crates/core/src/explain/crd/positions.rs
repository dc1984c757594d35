//! A CRD's regular expression matched by the set of pattern positions each character can reach
//! (a position automaton: one bit per character class written in the pattern), instead of
//! regex_lite's Pike VM. The Pike VM spends about 18,000 instructions on a 20-character
//! `metadata.name` (issue 37's profile); stepping a 64-bit set of positions takes a few per
//! character. The pattern is the CRD's own text, compiled here at run time: nothing is copied
//! from it by hand.
//!
//! Only what the CRDs write is compiled: anchored at both ends (`^...$`), literal characters and
//! escaped punctuation, `.`, bracket classes of characters and ranges (not negated), groups,
//! `|`, `*`, `+` and `?`, at most 64 classes. Anything else gives `None`, and the caller keeps
//! regex_lite for that pattern. The tests below compare both on many strings for every pattern
//! of every release's CRDs.

/// A compiled pattern: which positions may start and end a match, and which may follow each.
#[derive(Debug)]
pub(crate) struct Positions {
    /// The characters each position accepts: ranges, both ends included.
    classes: Vec<Vec<(char, char)>>,
    /// For an ASCII character, the positions that accept it, one bit each.
    ascii: [u64; 128],
    first: u64,
    last: u64,
    /// Whether the empty string matches.
    nullable: bool,
    /// For each position, the positions that may come next.
    follow: Vec<u64>,
}

/// What a piece of the pattern contributes to the automaton.
#[derive(Clone, Copy)]
struct Piece {
    nullable: bool,
    first: u64,
    last: u64,
}

impl Piece {
    const EMPTY: Piece = Piece { nullable: true, first: 0, last: 0 };
}

/// A recursive-descent reader of the supported syntax, adding classes and follow sets as it goes.
struct Compiler<'p> {
    chars: std::iter::Peekable<std::str::Chars<'p>>,
    classes: Vec<Vec<(char, char)>>,
    follow: Vec<u64>,
}

/// The most positions a `u64` holds.
const MAX_POSITIONS: usize = 64;

/// Everything `.` matches: any character but a line feed (RE2 without the `s` flag).
const ANY_BUT_NEWLINE: [(char, char); 2] = [('\0', '\t'), ('\u{b}', char::MAX)];

impl Positions {
    /// `pattern` compiled, or `None` when it uses syntax this matcher does not read.
    pub(crate) fn compile(pattern: &str) -> Option<Positions> {
        let body = pattern.strip_prefix('^')?.strip_suffix('$')?;
        // `\$` at the end is a literal dollar, not the anchor.
        if body.ends_with('\\') {
            return None;
        }
        let mut compiler = Compiler { chars: body.chars().peekable(), classes: Vec::new(), follow: Vec::new() };
        // One sequence: in `^a|b$` each anchor belongs to its own branch, so a `|` outside a
        // group leaves text unread and the pattern to regex_lite.
        let whole = compiler.sequence()?;
        if compiler.chars.next().is_some() {
            return None;
        }
        let Compiler { classes, follow, .. } = compiler;
        let mut ascii = [0u64; 128];
        for (byte, accepted) in ascii.iter_mut().enumerate() {
            *accepted = accepting(&classes, char::from(byte as u8));
        }
        Some(Positions { classes, ascii, first: whole.first, last: whole.last, nullable: whole.nullable, follow })
    }

    /// Whether all of `text` matches the pattern.
    pub(crate) fn is_match(&self, text: &str) -> bool {
        let mut reached: Option<u64> = None;
        for c in text.chars() {
            let next = match reached {
                None => self.first,
                Some(set) => self.followers(set),
            };
            let accepted = if c.is_ascii() { self.ascii[c as usize] } else { accepting(&self.classes, c) };
            let set = next & accepted;
            if set == 0 {
                return false;
            }
            reached = Some(set);
        }
        match reached {
            None => self.nullable,
            Some(set) => set & self.last != 0,
        }
    }

    fn followers(&self, mut set: u64) -> u64 {
        let mut next = 0;
        while set != 0 {
            next |= self.follow[set.trailing_zeros() as usize];
            set &= set - 1;
        }
        next
    }
}

/// The positions among `classes` whose class holds `c`.
fn accepting(classes: &[Vec<(char, char)>], c: char) -> u64 {
    let holds = |ranges: &Vec<(char, char)>| ranges.iter().any(|&(low, high)| (low..=high).contains(&c));
    classes.iter().enumerate().filter(|(_, ranges)| holds(ranges)).fold(0, |set, (p, _)| set | 1 << p)
}

impl Compiler<'_> {
    /// `a|b|…` up to the end of the text or of the group.
    fn alternation(&mut self) -> Option<Piece> {
        let mut whole = self.sequence()?;
        while self.chars.next_if_eq(&'|').is_some() {
            let branch = self.sequence()?;
            whole = Piece {
                nullable: whole.nullable || branch.nullable,
                first: whole.first | branch.first,
                last: whole.last | branch.last,
            };
        }
        Some(whole)
    }

    /// Repeated atoms, one after another.
    fn sequence(&mut self) -> Option<Piece> {
        let mut whole = Piece::EMPTY;
        while self.chars.peek().is_some_and(|c| !matches!(c, '|' | ')')) {
            let next = self.repeated()?;
            self.link(whole.last, next.first);
            whole = Piece {
                nullable: whole.nullable && next.nullable,
                first: whole.first | if whole.nullable { next.first } else { 0 },
                last: next.last | if next.nullable { whole.last } else { 0 },
            };
        }
        Some(whole)
    }

    /// An atom and the quantifiers after it.
    fn repeated(&mut self) -> Option<Piece> {
        let mut piece = self.atom()?;
        while let Some(quantifier) = self.chars.next_if(|c| matches!(c, '*' | '+' | '?')) {
            if quantifier != '?' {
                self.link(piece.last, piece.first);
            }
            piece.nullable |= quantifier != '+';
        }
        Some(piece)
    }

    fn atom(&mut self) -> Option<Piece> {
        let ranges = match self.chars.next()? {
            '(' => {
                // `(?:`, `(?i)` and named groups are not read.
                if self.chars.peek() == Some(&'?') {
                    return None;
                }
                let inner = self.alternation()?;
                return self.chars.next_if_eq(&')').map(|_| inner);
            }
            '[' => self.bracket()?,
            '.' => ANY_BUT_NEWLINE.to_vec(),
            '\\' => {
                let c = escaped(self.chars.next()?)?;
                vec![(c, c)]
            }
            '^' | '$' | '{' | '}' | ']' | ')' | '*' | '+' | '?' => return None,
            literal => vec![(literal, literal)],
        };
        self.position(ranges)
    }

    /// A bracket class after its `[`: characters, `a-z` ranges, escaped punctuation.
    fn bracket(&mut self) -> Option<Vec<(char, char)>> {
        let mut ranges = Vec::new();
        if self.chars.peek() == Some(&'^') {
            return None;
        }
        let mut first = true;
        loop {
            let c = match self.chars.next()? {
                ']' if !first => return Some(ranges),
                '\\' => escaped(self.chars.next()?)?,
                // `[:alpha:]` and nested classes are not read.
                '[' => return None,
                c => c,
            };
            first = false;
            let is_range = self.chars.peek() == Some(&'-') && {
                let mut ahead = self.chars.clone();
                ahead.next();
                ahead.peek().is_some_and(|&end| end != ']')
            };
            if !is_range {
                ranges.push((c, c));
                continue;
            }
            self.chars.next();
            let high = match self.chars.next()? {
                '\\' => escaped(self.chars.next()?)?,
                '[' => return None,
                high => high,
            };
            if high < c {
                return None;
            }
            ranges.push((c, high));
        }
    }

    /// A new position accepting `ranges`, as a piece of its own.
    fn position(&mut self, ranges: Vec<(char, char)>) -> Option<Piece> {
        let p = self.classes.len();
        if p == MAX_POSITIONS {
            return None;
        }
        self.classes.push(ranges);
        self.follow.push(0);
        Some(Piece { nullable: false, first: 1 << p, last: 1 << p })
    }

    /// Every position of `from` may be followed by every position of `to`.
    fn link(&mut self, mut from: u64, to: u64) {
        while from != 0 {
            self.follow[from.trailing_zeros() as usize] |= to;
            from &= from - 1;
        }
    }
}

/// The character an escape stands for: only RE2's special characters (`\.`, `\+`, `\-`), which
/// an escape makes literal; `\d`, `\w`, `\n`, `\<` (a word's start) and the like are not read.
fn escaped(c: char) -> Option<char> {
    "\\.+*?()|[]{}^$-/".contains(c).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pattern the CRDs give a matcher: their `pattern` constraints and the `matches(...)`
    /// of their rules.
    fn crd_patterns() -> Vec<&'static str> {
        let mut patterns = Vec::new();
        for crd in super::super::all() {
            for node in crd.nodes {
                for check in node.checks {
                    match *check {
                        super::super::Check::Pattern(p) => patterns.push(p),
                        super::super::Check::Rule { rule, .. } => {
                            let mut rest = rule;
                            while let Some(at) = rest.find(".matches('") {
                                let after = &rest[at + ".matches('".len()..];
                                let end = after.find('\'').expect("a closing quote");
                                patterns.push(&after[..end]);
                                rest = &after[end..];
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        patterns.sort_unstable();
        patterns.dedup();
        patterns
    }

    /// Every string of up to `longest` characters over `alphabet`, and random longer ones.
    fn samples(alphabet: &[char], longest: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut level = vec![String::new()];
        for _ in 0..longest {
            level = level.iter().flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}"))).collect();
            all.extend(level.iter().cloned());
        }
        // A fixed xorshift, so a failure repeats.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 24) as usize;
            let text: String =
                (0..len).map(|i| alphabet[((state >> (i % 8 * 8)) as usize + i * 7) % alphabet.len()]).collect();
            all.push(text);
        }
        all
    }

    /// The characters the CRDs' patterns name, and some they do not (a capital, a space, a line
    /// feed, a character outside ASCII).
    const ALPHABET: [char; 22] =
        ['a', 'z', 'e', 'E', 'i', 'K', 'm', 'Z', '0', '9', '-', '.', '_', '/', '+', ':', ',', ' ', '\n', 'é', 'A', 'n'];

    #[test]
    fn every_crd_pattern_compiles_and_matches_as_regex_lite_does() {
        let patterns = crd_patterns();
        assert!(patterns.len() >= 5, "{patterns:?}");
        let mut texts = samples(&ALPHABET[..12], 4);
        texts.extend(samples(&ALPHABET, 3));
        for name in ["pytorch-simple-0", "many-documents-0001", "a", "a-", "-a", "Invalid-job-name", "jobname-"] {
            texts.push(name.to_string());
        }
        for quantity in ["1", "500m", "1.5Gi", "2e3", "+.5", "1E-3", "1Ki", "1i", "1.", ".", "-", "4x"] {
            texts.push(quantity.to_string());
        }
        for uri in ["hf://x", "s3://b/k", "hf:/x", "a+b.c-d://e", "1x://y", "x://", "x://\n"] {
            texts.push(uri.to_string());
        }
        for pattern in patterns {
            let fast = Positions::compile(pattern).unwrap_or_else(|| panic!("{pattern} does not compile"));
            let engine = regex_lite::Regex::new(pattern).expect("the CRD's pattern compiles");
            for text in &texts {
                assert_eq!(fast.is_match(text), engine.is_match(text), "{pattern} on {text:?}");
            }
        }
    }

    #[test]
    fn other_syntax_is_left_to_regex_lite() {
        for pattern in [
            "a",
            "^a",
            "a$",
            "^[^a]$",
            "^\\d$",
            "^a{2}$",
            "^(?:a)$",
            "^(?i)a$",
            "^a\\$",
            "^[[:alpha:]]$",
            "^[z-a]$",
            "^a|b$",
            "^\\<a$",
        ] {
            assert!(Positions::compile(pattern).is_none(), "{pattern}");
        }
        let wide = format!("^{}$", "a".repeat(MAX_POSITIONS + 1));
        assert!(Positions::compile(&wide).is_none());
    }

    #[test]
    fn groups_alternation_and_quantifiers_match_as_regex_lite_does() {
        let patterns = ["^(a|b)*c$", "^a?b+$", "^(ab|a)(c|)$", "^.*$", "^[-a]+\\.x$", "^$", "^(a*)*$", "^(a|b)+\\.?$"];
        let texts = samples(&['a', 'b', 'c', '.', 'x', '-', '\n'], 5);
        for pattern in patterns {
            let fast = Positions::compile(pattern).unwrap_or_else(|| panic!("{pattern} does not compile"));
            let engine = regex_lite::Regex::new(pattern).expect("compiles");
            for text in &texts {
                assert_eq!(fast.is_match(text), engine.is_match(text), "{pattern} on {text:?}");
            }
        }
    }
}
