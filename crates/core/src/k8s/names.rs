//! Object names, checked as apimachinery checks them, in its words: pkg/util/validation/
//! validation.go @v0.35.7 (`IsDNS1123Label` :167-180, `IsDNS1123Subdomain` :198-207,
//! `IsDNS1035Label` :232-241, `MaxLenError` :425-427, `RegexError` :430-443). Each returns the
//! reasons a value is refused, none when it is accepted.

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR: &str =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', \
                                 and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
                                     characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_ERR: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start \
                                 with an alphabetic character, and end with an alphanumeric character";

/// `MaxLenError`.
pub fn max_len_error(length: usize) -> String {
    format!("must be no more than {length} characters")
}

/// `RegexError`, examples joined as upstream joins them (`'my-name',  or 'abc-123', `).
pub fn regex_error(msg: &str, regex: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{regex}')");
    }
    let mut out = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push_str(&format!("'{e}', "));
    }
    out.push_str(&format!("regex used for validation is '{regex}')"));
    out
}

/// `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`, or with `first_letter` `^[a-z]([-a-z0-9]*[a-z0-9])?$`.
fn label_matches(s: &str, first_letter: bool) -> bool {
    let first_ok = |c: char| c.is_ascii_lowercase() || (!first_letter && c.is_ascii_digit());
    s.starts_with(first_ok)
        && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !s.ends_with('-')
}

fn subdomain_matches(s: &str) -> bool {
    s.split('.').all(|l| label_matches(l, false))
}

/// `IsDNS1123Label`: at most 63 characters of `[a-z0-9-]`, alphanumeric at both ends.
pub fn is_dns1123_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !label_matches(s, false) {
        if subdomain_matches(s) {
            errs.push("must not contain dots".into());
        } else {
            errs.push(regex_error(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, &["my-name", "123-abc"]));
        }
    }
    errs
}

/// `IsDNS1123Subdomain`: at most 253 characters, DNS-1123 labels joined by dots.
pub fn is_dns1123_subdomain(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 253 {
        errs.push(max_len_error(253));
    }
    if !subdomain_matches(s) {
        errs.push(regex_error(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, &["example.com"]));
    }
    errs
}

const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' \
                               or '.', and must start and end with an alphanumeric character";

/// `IsValidLabelValue` (validation.go, `labelValueFmt`, `LabelValueMaxLength`): empty, or at most
/// 63 characters of `[-A-Za-z0-9_.]`, alphanumeric at both ends.
pub fn is_valid_label_value(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len_error(63));
    }
    let inner = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    let matches = s.is_empty()
        || (s.chars().all(inner)
            && s.starts_with(|c: char| c.is_ascii_alphanumeric())
            && s.ends_with(|c: char| c.is_ascii_alphanumeric()));
    if !matches {
        errs.push(regex_error(LABEL_VALUE_ERR, LABEL_VALUE_FMT, &["MyValue", "my_value", "12345"]));
    }
    errs
}

/// `IsDNS1035Label`: a DNS-1123 label that starts with a letter.
pub fn is_dns1035_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !label_matches(s, true) {
        errs.push(regex_error(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, &["my-name", "abc-123"]));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(f: fn(&str) -> Vec<String>, good: &[&str], bad: &[&str], long_ok: usize) {
        let long_ok = "a".repeat(long_ok);
        let long_bad = format!("{long_ok}a");
        for v in good.iter().copied().chain([long_ok.as_str()]) {
            assert!(f(v).is_empty(), "{v:?}: {:?}", f(v));
        }
        for v in bad.iter().copied().chain([long_bad.as_str()]) {
            assert!(!f(v).is_empty(), "{v:?}");
        }
    }

    /// validation_test.go:27-52 @v0.35.7 (`TestIsDNS1123Label`), transcribed.
    #[test]
    fn apimachinerys_dns1123_label_table() {
        let good = ["a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2"];
        let bad = [
            "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a", "a_b", "1_", "_1",
            "1_2", ".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ", " a", "a b", "1 ", " 1", "1 2",
        ];
        check(is_dns1123_label, &good, &bad, 63);
        assert_eq!(is_dns1123_label("a.b"), ["must not contain dots"]);
    }

    /// validation_test.go:54-90 (`TestIsDNS1123Subdomain`), transcribed.
    #[test]
    fn apimachinerys_dns1123_subdomain_table() {
        let good = [
            "a",
            "ab",
            "abc",
            "a1",
            "a-1",
            "a--1--2--b",
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            "a.a",
            "ab.a",
            "abc.a",
            "a1.a",
            "a-1.a",
            "a--1--2--b.a",
            "a.1",
            "ab.1",
            "abc.1",
            "a1.1",
            "a-1.1",
            "a--1--2--b.1",
            "0.a",
            "01.a",
            "012.a",
            "1a.a",
            "1-a.a",
            "1--a--b--2",
            "0.1",
            "01.1",
            "012.1",
            "1a.1",
            "1-a.1",
            "1--a--b--2.1",
            "a.b.c.d.e",
            "aa.bb.cc.dd.ee",
            "1.2.3.4.5",
            "11.22.33.44.55",
        ];
        let bad = [
            "",
            "A",
            "ABC",
            "aBc",
            "A1",
            "A-1",
            "1-A",
            "-",
            "a-",
            "-a",
            "1-",
            "-1",
            "_",
            "a_",
            "_a",
            "a_b",
            "1_",
            "_1",
            "1_2",
            ".",
            "a.",
            ".a",
            "a..b",
            "1.",
            ".1",
            "1..2",
            " ",
            "a ",
            " a",
            "a b",
            "1 ",
            " 1",
            "1 2",
            "A.a",
            "aB.a",
            "ab.A",
            "A1.a",
            "a1.A",
            "A.1",
            "aB.1",
            "A1.1",
            "1A.1",
            "0.A",
            "01.A",
            "012.A",
            "1A.a",
            "1a.A",
            "A.B.C.D.E",
            "AA.BB.CC.DD.EE",
            "a.B.c.d.e",
            "aa.bB.cc.dd.ee",
            "a@b",
            "a,b",
            "a_b",
            "a;b",
            "a:b",
            "a%b",
            "a?b",
            "a$b",
        ];
        check(is_dns1123_subdomain, &good, &bad, 253);
    }

    /// validation_test.go:92-122 (`TestIsDNS1035Label`), transcribed.
    #[test]
    fn apimachinerys_dns1035_label_table() {
        let good = ["a", "ab", "abc", "a1", "a-1", "a--1--2--b"];
        let bad = [
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            "",
            "A",
            "ABC",
            "aBc",
            "A1",
            "A-1",
            "1-A",
            "-",
            "a-",
            "-a",
            "1-",
            "-1",
            "_",
            "a_",
            "_a",
            "a_b",
            "1_",
            "_1",
            "1_2",
            ".",
            "a.",
            ".a",
            "a.b",
            "1.",
            ".1",
            "1.2",
            " ",
            "a ",
            " a",
            "a b",
            "1 ",
            " 1",
            "1 2",
        ];
        check(is_dns1035_label, &good, &bad, 63);
    }

    /// Values either side of the rule: empty, upper case, `_` and `.` inside pass; a `/`, an end that is
    /// no alphanumeric, a character outside ASCII, 64 characters fail.
    #[test]
    fn apimachinerys_label_value_table() {
        let good = ["simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", "", "A.B.C", "a.b-c_d"];
        let bad = ["nospecialchars%^=@", "Tama-nui-te-rā", "Tama-nui-te-ra-", "-tama", "_x", "x_", ".x", "a/b", " "];
        check(is_valid_label_value, &good, &bad, 63);
        assert_eq!(
            is_valid_label_value("a/b"),
            ["a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must \
              start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used \
              for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"]
        );
    }

    /// The messages as the API server prints them (RegexError joins two examples with `',  or '`).
    #[test]
    fn messages_are_apimachinerys() {
        assert_eq!(
            is_dns1035_label("1a"),
            ["a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic \
              character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for \
              validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"]
        );
        assert_eq!(is_dns1123_subdomain(&"a".repeat(254))[0], "must be no more than 253 characters");
    }
}
