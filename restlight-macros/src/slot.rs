//! Attributes as they are collected while parsing: a [`Slot`] holds the one
//! value of a single-valued attribute and reports a second occurrence, a
//! [`List`] gathers the values of an attribute that may repeat.

use crate::ctxt::{with_help, Ctxt, Spans};
use crate::helpers::Helper;
use crate::model::Spanned;

/// The value of an attribute that may be written once on an item.
///
/// The first [`set`](Self::set) stores the value; every later one is an
/// error spanned on the later attribute, and the first value stays.
#[derive(Debug, Clone)]
pub(crate) struct Slot<T> {
    value: Option<Spanned<T>>,
}

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Self { value: None }
    }
}

impl<T> Slot<T> {
    /// Stores the value of `helper`, written as the attribute at `attr`, or
    /// reports "duplicate `#[helper]`" there, with the helper's own advice,
    /// when the slot is taken.
    pub(crate) fn set(&mut self, cx: &mut Ctxt, helper: Helper, attr: Spans, value: Spanned<T>) {
        match &self.value {
            Some(_) => {
                let message = format!("duplicate `#[{}]`", helper.name());
                cx.error(attr, with_help(message, helper.once_help()));
            }
            None => self.value = Some(value),
        }
    }

    /// Stores `value`, or reports the message and help line `conflict`
    /// makes of the value already there, spanned on `value`.
    pub(crate) fn set_or_else(
        &mut self,
        cx: &mut Ctxt,
        value: Spanned<T>,
        conflict: impl FnOnce(&Spanned<T>) -> (String, String),
    ) {
        match &self.value {
            Some(first) => {
                let (message, help) = conflict(first);
                cx.error(value.span, with_help(message, help));
            }
            None => self.value = Some(value),
        }
    }

    /// The value and where it was written, if it was.
    pub(crate) fn get(&self) -> Option<&Spanned<T>> {
        self.value.as_ref()
    }

    /// The value without its span, if any.
    pub(crate) fn value(&self) -> Option<&T> {
        self.value.as_ref().map(|s| &s.value)
    }

    /// Where the attribute was written, if it was.
    pub(crate) fn span(&self) -> Option<Spans> {
        self.value.as_ref().map(|s| s.span)
    }

    /// Whether the attribute was written.
    pub(crate) fn is_set(&self) -> bool {
        self.value.is_some()
    }

    /// The value, consuming the slot.
    pub(crate) fn into_inner(self) -> Option<Spanned<T>> {
        self.value
    }
}

/// The values of an attribute that may be written several times on an item,
/// in the order written.
#[derive(Debug, Clone)]
pub(crate) struct List<T> {
    values: Vec<Spanned<T>>,
}

impl<T> Default for List<T> {
    fn default() -> Self {
        Self { values: Vec::new() }
    }
}

impl<T> List<T> {
    /// Adds one value.
    pub(crate) fn push(&mut self, value: Spanned<T>) {
        self.values.push(value);
    }

    /// The values, in the order written.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Spanned<T>> {
        self.values.iter()
    }

    /// Where the first value was written, if any was.
    pub(crate) fn first_span(&self) -> Option<Spans> {
        self.values.first().map(|s| s.span)
    }
}
