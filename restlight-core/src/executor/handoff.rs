//! One value handed from one thread to another that waits for it: a
//! business thread's runtime, given to the thread once it is spawned, and
//! the server thread's report that it listens (or why it cannot).
//!
//! `std::sync::mpsc` did this before. A channel links the code of its three
//! flavours (zero, array and list) for every message type: about 50 KiB of
//! every service's binary, for a few values each sent once. A slot under a
//! mutex, with a condition variable to wait on, is all a single value
//! needs.

use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// Makes a handoff: the giving side and the taking side.
pub fn handoff<T>() -> (Giver<T>, Taker<T>) {
    let shared = Arc::new(Shared { slot: Mutex::new(Slot::Waiting), changed: Condvar::new() });
    (Giver(Arc::clone(&shared)), Taker(shared))
}

struct Shared<T> {
    slot: Mutex<Slot<T>>,
    changed: Condvar,
}

enum Slot<T> {
    /// Nothing given yet, and the giver is still there.
    Waiting,
    /// Given, not yet taken.
    Given(T),
    /// Taken, or the giver dropped without giving: nothing more comes.
    Done,
}

impl<T> Shared<T> {
    fn set(&self, slot: Slot<T>) {
        let mut current = self.slot.lock().unwrap_or_else(PoisonError::into_inner);
        if matches!(*current, Slot::Waiting) {
            *current = slot;
            self.changed.notify_all();
        }
    }
}

/// The giving side: the first [`give`](Self::give) counts. Dropping it
/// without giving tells the taker nothing will come (as a dropped
/// `Sender` does), so a thread that panics does not leave it waiting.
pub struct Giver<T>(Arc<Shared<T>>);

impl<T> Giver<T> {
    /// Gives `value`; a later call is ignored (its value dropped).
    pub fn give(&self, value: T) {
        self.0.set(Slot::Given(value));
    }
}

impl<T> Drop for Giver<T> {
    fn drop(&mut self) {
        self.0.set(Slot::Done);
    }
}

impl<T> std::fmt::Debug for Giver<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Giver")
    }
}

/// The taking side.
pub struct Taker<T>(Arc<Shared<T>>);

impl<T> Taker<T> {
    /// Waits for the value; `None` when the giver was dropped without
    /// giving one.
    pub fn take(self) -> Option<T> {
        let slot = self.0.slot.lock().unwrap_or_else(PoisonError::into_inner);
        let mut slot = self
            .0
            .changed
            .wait_while(slot, |slot| matches!(slot, Slot::Waiting))
            .unwrap_or_else(PoisonError::into_inner);
        match std::mem::replace(&mut *slot, Slot::Done) {
            Slot::Given(value) => Some(value),
            Slot::Waiting | Slot::Done => None,
        }
    }

    /// The value if it has been given, without waiting.
    pub fn try_take(&self) -> Option<T> {
        let mut slot = self.0.slot.lock().unwrap_or_else(PoisonError::into_inner);
        match std::mem::replace(&mut *slot, Slot::Done) {
            Slot::Given(value) => Some(value),
            Slot::Waiting => {
                *slot = Slot::Waiting;
                None
            }
            Slot::Done => None,
        }
    }
}

impl<T> std::fmt::Debug for Taker<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Taker")
    }
}

#[cfg(test)]
mod tests {
    use super::handoff;
    use std::time::Duration;

    #[test]
    fn the_taker_waits_for_the_value_another_thread_gives() {
        let (giver, taker) = handoff::<String>();
        let thread = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            giver.give("ready".to_owned());
            // A second value is ignored.
            giver.give("again".to_owned());
        });
        assert_eq!(taker.take().as_deref(), Some("ready"));
        thread.join().unwrap();
    }

    #[test]
    fn a_giver_dropped_without_giving_ends_the_wait_with_none() {
        let (giver, taker) = handoff::<u32>();
        // What unwinding does to the giver of a thread that panics.
        let thread = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            drop(giver);
        });
        assert_eq!(taker.take(), None);
        thread.join().unwrap();
    }

    #[test]
    fn try_take_does_not_wait_and_keeps_waiting_for_a_value_to_come() {
        let (giver, taker) = handoff::<u32>();
        assert_eq!(taker.try_take(), None);
        giver.give(7);
        assert_eq!(taker.try_take(), Some(7));
        assert_eq!(taker.try_take(), None);
    }
}
