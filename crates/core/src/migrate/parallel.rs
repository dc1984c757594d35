//! A stream's documents worked on by several threads, handed back in input order.
//!
//! Once the input door has read a document it owes nothing to the text or to the documents
//! around it, so its conversion (and what a caller makes of it after: the CLI's pod comparison
//! and report) can run on another core while the door reads the next. The door itself stays on
//! the calling thread: it is one parser's stream, read in order, with budgets across documents.
//!
//! Natively only: the wasm modules run on one thread, and there [`map_in_order`] is `map`.

/// The most threads a stream is worked on by, beside the calling thread: the door reads about a
/// quarter of the CLI's work (callgrind on the 1 MB manifest), so more workers than this wait for it.
#[cfg(not(target_arch = "wasm32"))]
const MAX_WORKERS: usize = 4;

/// Documents handed to the workers and not yet taken back, per worker: enough that a worker
/// finds the next one ready, few enough that the documents held at once stay a handful
/// (make bench's peak-memory rows).
#[cfg(not(target_arch = "wasm32"))]
const AHEAD_PER_WORKER: usize = 2;

/// `inputs.map(work)`, with `work` run on worker threads when there are more cores than one and
/// more inputs than one: the same items in the same order. `inputs` is read on the calling
/// thread, a few items ahead of the caller. A panic in `work` is raised again on the calling
/// thread, when its item's turn comes. Dropping the iterator stops the workers and waits for
/// them (each finishes the item it holds).
pub fn map_in_order<I, U, F>(inputs: I, work: F) -> impl Iterator<Item = U>
where
    I: Iterator,
    I::Item: Send + 'static,
    U: Send + 'static,
    F: Fn(I::Item) -> U + Send + Sync + 'static,
{
    map_in_order_on(inputs, work, workers())
}

/// How many threads this machine's cores make worth working on a stream (1: the calling thread
/// alone). One in a process whose address space is limited (`ulimit -v`): each thread's stack and
/// malloc arena is reserved out of that limit whether used or not, so more threads would leave
/// less for the documents than the same run on one thread (the CLI's debug build answered
/// many-documents within 24 MiB on one thread, and needed 40 MiB on three).
pub fn workers() -> usize {
    #[cfg(target_arch = "wasm32")]
    return 1;
    #[cfg(not(target_arch = "wasm32"))]
    if address_space_limited() {
        1
    } else {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get).min(MAX_WORKERS)
    }
}

/// Whether this process has a soft limit on its address space (Linux's `/proc/self/limits`;
/// elsewhere, none is known of).
#[cfg(not(target_arch = "wasm32"))]
fn address_space_limited() -> bool {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    // `Max address space   unlimited   unlimited   bytes`: the soft limit first.
    limits
        .lines()
        .find_map(|line| line.strip_prefix("Max address space"))
        .and_then(|limits| limits.split_whitespace().next())
        .is_some_and(|soft| soft != "unlimited")
}

/// [`map_in_order`] on `workers` threads (1: on the calling thread), whatever the machine has.
pub(crate) fn map_in_order_on<I, U, F>(inputs: I, work: F, workers: usize) -> impl Iterator<Item = U>
where
    I: Iterator,
    I::Item: Send + 'static,
    U: Send + 'static,
    F: Fn(I::Item) -> U + Send + Sync + 'static,
{
    #[cfg(target_arch = "wasm32")]
    return {
        let _ = workers;
        inputs.map(work)
    };
    #[cfg(not(target_arch = "wasm32"))]
    native::InOrder::new(inputs, work, workers)
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod native {
    use super::AHEAD_PER_WORKER;
    use std::collections::VecDeque;
    use std::sync::{mpsc, Arc, Mutex, PoisonError};
    use std::thread::{self, JoinHandle};

    /// An item's sequence number in the stream, and the item.
    type Numbered<T> = (usize, T);

    /// What a worker made of an item: its result, or the panic `work` raised on it.
    type Done<U> = (usize, thread::Result<U>);

    /// [`super::map_in_order`] on this platform.
    pub(crate) struct InOrder<I: Iterator, U, F> {
        inputs: I,
        work: Arc<F>,
        /// How many workers to start once a second item shows the stream is worth them.
        workers: usize,
        state: State<I::Item, U>,
    }

    enum State<T, U> {
        /// Nothing read yet.
        Unread,
        /// Worked on the calling thread: one item, one core, or no worker could start. `held`
        /// are items read before that was known, worked on first.
        Alone {
            held: VecDeque<T>,
        },
        Pool(Pool<T, U>),
    }

    /// The workers, and the items handed to them and not yet taken back.
    struct Pool<T, U> {
        /// `None` once the workers are told to stop (dropped: their `recv` fails).
        jobs: Option<mpsc::Sender<Numbered<T>>>,
        /// The workers' end of `jobs`, emptied when the caller stops early.
        queue: Arc<Mutex<mpsc::Receiver<Numbered<T>>>>,
        results: mpsc::Receiver<Done<U>>,
        handles: Vec<JoinHandle<()>>,
        /// Results come back in any order; the one at the front is item `next`'s.
        arrived: VecDeque<Option<thread::Result<U>>>,
        /// The sequence number of the next item to hand to the caller.
        next: usize,
        /// How many items were handed to the workers.
        sent: usize,
        /// The most items handed out and not taken back by the caller.
        ahead: usize,
        /// The inputs ran out.
        read_all: bool,
    }

    impl<I, U, F> InOrder<I, U, F>
    where
        I: Iterator,
        I::Item: Send + 'static,
        U: Send + 'static,
        F: Fn(I::Item) -> U + Send + Sync + 'static,
    {
        pub(crate) fn new(inputs: I, work: F, workers: usize) -> Self {
            InOrder { inputs, work: Arc::new(work), workers, state: State::Unread }
        }

        /// Reads the first items and decides who works on them.
        fn start(&mut self) -> State<I::Item, U> {
            let mut held: VecDeque<I::Item> = self.inputs.next().into_iter().collect();
            // A second item only when there are workers to give it to: one document (most
            // files) is read and worked on exactly as without threads.
            if self.workers > 1 && !held.is_empty() {
                held.extend(self.inputs.next());
            }
            if held.len() < 2 {
                return State::Alone { held };
            }
            match Pool::start(self.workers, &self.work) {
                Some(mut pool) => {
                    held.into_iter().for_each(|item| pool.send(item));
                    State::Pool(pool)
                }
                None => State::Alone { held },
            }
        }
    }

    impl<I, U, F> Iterator for InOrder<I, U, F>
    where
        I: Iterator,
        I::Item: Send + 'static,
        U: Send + 'static,
        F: Fn(I::Item) -> U + Send + Sync + 'static,
    {
        type Item = U;

        fn next(&mut self) -> Option<U> {
            if matches!(self.state, State::Unread) {
                self.state = self.start();
            }
            match &mut self.state {
                State::Unread => unreachable!("started above"),
                State::Alone { held } => held.pop_front().or_else(|| self.inputs.next()).map(|item| (self.work)(item)),
                State::Pool(pool) => {
                    pool.fill(&mut self.inputs);
                    pool.take()
                }
            }
        }
    }

    impl<T: Send + 'static, U: Send + 'static> Pool<T, U> {
        /// Starts `workers` threads running `work`; `None` when not even one could start.
        fn start<F: Fn(T) -> U + Send + Sync + 'static>(workers: usize, work: &Arc<F>) -> Option<Self> {
            let (jobs, queue) = mpsc::channel::<Numbered<T>>();
            let (done, results) = mpsc::channel::<Done<U>>();
            let queue = Arc::new(Mutex::new(queue));
            let handles: Vec<JoinHandle<()>> = (0..workers)
                .map_while(|_| {
                    let (queue, done, work) = (Arc::clone(&queue), done.clone(), Arc::clone(work));
                    thread::Builder::new().name("migrate".into()).spawn(move || serve(&queue, &done, &*work)).ok()
                })
                .collect();
            if handles.is_empty() {
                return None;
            }
            let ahead = handles.len() * AHEAD_PER_WORKER;
            Some(Pool {
                jobs: Some(jobs),
                queue,
                results,
                handles,
                arrived: VecDeque::new(),
                next: 0,
                sent: 0,
                ahead,
                read_all: false,
            })
        }

        fn send(&mut self, item: T) {
            if let Some(jobs) = &self.jobs {
                // The workers hold the queue until the pool drops it: a send cannot fail before.
                let _ = jobs.send((self.sent, item));
            }
            self.sent += 1;
        }

        /// Hands the workers items from `inputs` until `ahead` are out.
        fn fill(&mut self, inputs: &mut impl Iterator<Item = T>) {
            while !self.read_all && self.sent - self.next < self.ahead {
                match inputs.next() {
                    Some(item) => self.send(item),
                    None => self.read_all = true,
                }
            }
        }

        /// The next item's result, waiting for it; `None` when every item was taken.
        fn take(&mut self) -> Option<U> {
            if self.next == self.sent {
                return None;
            }
            while !matches!(self.arrived.front(), Some(Some(_))) {
                // A worker catches its item's panic and sends it, so every item sent comes back
                // while the pool holds the workers.
                let (number, result) = self.results.recv().expect("the workers answer every item sent");
                let slot = number - self.next;
                if self.arrived.len() <= slot {
                    self.arrived.resize_with(slot + 1, || None);
                }
                self.arrived[slot] = Some(result);
            }
            let result = self.arrived.pop_front().flatten().expect("arrived above");
            self.next += 1;
            match result {
                Ok(value) => Some(value),
                // The item's panic, raised where the caller would have met it without threads.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    }

    /// A worker: takes items off `queue` until it is closed, sends what `work` made of each.
    fn serve<T, U>(queue: &Mutex<mpsc::Receiver<Numbered<T>>>, done: &mpsc::Sender<Done<U>>, work: &impl Fn(T) -> U) {
        loop {
            // The lock is held while waiting, so one idle worker waits on the queue at a time.
            let job = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
            let Ok((number, item)) = job else { return };
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(item)));
            if done.send((number, result)).is_err() {
                return;
            }
        }
    }

    impl<T, U> Drop for Pool<T, U> {
        /// Closes the queue and waits for the workers: none outlives the iterator, and the items
        /// nobody will take are dropped unworked.
        fn drop(&mut self) {
            self.jobs = None;
            let queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
            while queue.try_recv().is_ok() {}
            drop(queue);
            for handle in self.handles.drain(..) {
                let _ = handle.join();
            }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::map_in_order_on;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{mpsc, Arc, Mutex};

    #[test]
    fn results_come_in_input_order_whatever_order_they_are_made_in() {
        // Item 0's work waits until item 1's is done, so item 1's result arrives first; the rest
        // follow as the workers make them.
        let (one_done, wait_for_one) = mpsc::channel::<()>();
        let (one_done, wait_for_one) = (Mutex::new(one_done), Mutex::new(wait_for_one));
        let work = move |i: usize| {
            match i {
                0 => {
                    let _ = wait_for_one.lock().unwrap().recv();
                }
                1 => {
                    let _ = one_done.lock().unwrap().send(());
                }
                _ => {}
            }
            i * 10
        };
        let made: Vec<usize> = map_in_order_on(0..2_000, work, 3).collect();
        assert_eq!(made, (0..2_000).map(|i| i * 10).collect::<Vec<_>>());
    }

    /// A stream of jobs with invalid documents and a refused one among them, migrated with
    /// `workers` threads: each document's YAML, report and failure lines.
    fn migrated_on(workers: usize) -> Vec<(String, String, Vec<String>)> {
        use crate::migrate::{migrate_documents_on, Migration, Sources};
        let job = |name: &str| {
            format!(
                "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: {name}\nspec:\n  pytorchReplicaSpecs:\n    \
                 Master:\n      replicas: 1\n      template:\n        spec:\n          containers:\n          - name: pytorch\n            \
                 image: pytorch:2\n            env:\n            - name: A\n              value: \"1\"\n"
            )
        };
        let mut text: Vec<String> = (0..40).map(|i| job(&format!("job-{i}"))).collect();
        text[13] = "just a string\n".to_owned();
        // A value the parser cannot read ends the stream.
        text[39] = "a: !!int xyz\n".to_owned();
        text[27] = "apiVersion: kubeflow.org/v1\nkind: MPIJob\nmetadata:\n  name: refused\nspec: {}\n".to_owned();
        let text = text.join("---\n");
        let target = explorer_data::releases::NEWEST;
        let raw = crate::pipeline::input::each_document(&text).expect("accepted");
        let docs = migrate_documents_on(
            raw,
            target,
            Sources::ForOutput,
            move |d| Migration { docs: vec![d], target },
            workers,
        );
        docs.map(|m| (m.output_yaml(), m.report_text(), m.failures())).collect()
    }

    #[test]
    fn a_stream_with_failures_migrates_on_threads_as_on_one() {
        let alone = migrated_on(1);
        assert_eq!(alone.len(), 40);
        let failed: Vec<usize> = (0..alone.len()).filter(|&i| !alone[i].2.is_empty()).collect();
        assert_eq!(failed, [13, 27, 39], "two invalid documents and a refused one: {alone:?}");
        assert_eq!(migrated_on(3), alone);
    }

    /// Sets its flag when dropped: `work` holds one, dropped with the last thread that holds `work`.
    struct SetWhenDropped(Arc<AtomicBool>);

    impl Drop for SetWhenDropped {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    #[test]
    fn dropping_the_iterator_early_waits_for_the_workers() {
        // Item 2's work waits until the inputs are dropped (with the iterator), so a worker is
        // still at work when the caller stops after the first item.
        let (release, held) = mpsc::channel::<()>();
        let held = Mutex::new(held);
        let work_dropped = Arc::new(AtomicBool::new(false));
        let guard = SetWhenDropped(Arc::clone(&work_dropped));
        let work = move |i: usize| {
            let _ = &guard;
            if i == 2 {
                let _ = held.lock().unwrap().recv();
            }
            i
        };
        let inputs = (0..100).inspect(move |_| {
            let _ = &release;
        });
        let mut made = map_in_order_on(inputs, work, 2);
        assert_eq!(made.next(), Some(0));
        drop(made);
        assert!(work_dropped.load(Ordering::SeqCst), "a worker outlived the iterator");
    }

    #[test]
    fn a_panic_in_work_is_raised_on_the_calling_thread_in_its_turn() {
        let made = std::panic::catch_unwind(|| {
            let mut seen = Vec::new();
            for i in map_in_order_on(0..50, |i: usize| if i == 20 { panic!("item 20") } else { i }, 3) {
                seen.push(i);
            }
            seen
        });
        let panic = made.expect_err("the panic reached the caller");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"item 20"));
    }
}
