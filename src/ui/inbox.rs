//! What reaches an explorer from outside it: an option its host page changed (www/element.js
//! `optionChanged`) and a choice another instance on the page shared. Either may come as soon as
//! the explorer's mount returns: the loader passes options on once the host carries the mounted
//! mark, which mount sets before Yew has rendered anything. The explorer can apply them only from
//! its first effect, and Yew runs that after the first render, a task or more later when its
//! scheduler yields (a loaded machine). Listening from then on lost what came in between, so the
//! listeners start at mount and hold what they hear until the explorer takes delivery.

use super::browser;
use super::hooks::Store;
use super::state::Action;
use explorer_core::query::SyncSet;
use gloo::events::EventListener;
use std::cell::RefCell;
use std::rc::Rc;

/// Where the explorer's outside changes go: held until its first effect, then to its state.
/// The listeners an inbox hears through: the host's, and the window's (none without a window).
pub(crate) type Listeners = (EventListener, Option<EventListener>);

#[derive(Clone)]
pub(crate) struct Inbox(Rc<RefCell<Delivery>>);

enum Delivery {
    Holding(Vec<Action>),
    To(Store),
}

/// One inbox is one instance's: the props of the same instance compare equal.
impl PartialEq for Inbox {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Inbox {
    /// Starts listening for `host`'s option changes and for the choices the other instances
    /// share (`me`'s own broadcasts excepted), applied to what `sync` shares. The listeners stop
    /// when dropped.
    pub(crate) fn listen(host: &web_sys::Element, me: u32, sync: SyncSet) -> (Self, Listeners) {
        let inbox = Inbox(Rc::new(RefCell::new(Delivery::Holding(Vec::new()))));
        let from_host = {
            let inbox = inbox.clone();
            EventListener::new(host, browser::OPTIONS_EVENT, move |event| {
                if let Some(query) = browser::options_detail(event) {
                    inbox.take(Action::Host(query));
                }
            })
        };
        let from_instances = web_sys::window().map(|window| {
            let inbox = inbox.clone();
            EventListener::new(&window, browser::SYNC_EVENT, move |event| {
                if let Some((sender, query)) = browser::parse_sync_detail(event) {
                    if sender != me {
                        inbox.take(Action::External(query, sync));
                    }
                }
            })
        });
        (inbox, (from_host, from_instances))
    }

    fn take(&self, action: Action) {
        let store = match &mut *self.0.borrow_mut() {
            Delivery::Holding(held) => return held.push(action),
            Delivery::To(store) => store.clone(),
        };
        // Outside the borrow: a render the dispatch starts may hear of more.
        store.dispatch(action);
    }

    /// Applies what was held, in the order it came, and everything heard from now on.
    pub(crate) fn deliver_to(&self, store: Store) {
        let before = std::mem::replace(&mut *self.0.borrow_mut(), Delivery::To(store.clone()));
        if let Delivery::Holding(held) = before {
            for action in held {
                store.dispatch(action);
            }
        }
    }

    /// Holds again, letting go of the explorer's state (its instance is going).
    pub(crate) fn hold(&self) {
        *self.0.borrow_mut() = Delivery::Holding(Vec::new());
    }
}
