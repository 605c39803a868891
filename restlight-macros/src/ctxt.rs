//! Collects every mistake found while reading a macro input, so that all of
//! them are reported at once (the `serde_derive` `Ctxt` pattern).

use std::fmt::Display;

use proc_macro2::{Punct, Spacing, Span, TokenStream, TokenTree};
use quote::ToTokens;

/// An accumulator of `syn::Error`s. It must be finished with [`Ctxt::check`];
/// dropping it unchecked is a bug in this crate and panics.
pub(crate) struct Ctxt {
    errors: Option<Vec<syn::Error>>,
}

impl Ctxt {
    pub(crate) fn new() -> Self {
        Self { errors: Some(Vec::new()) }
    }

    /// Records `error`.
    pub(crate) fn push(&mut self, error: syn::Error) {
        self.errors.as_mut().expect("Ctxt used after check").push(error);
    }

    /// Records an error at `spans` with a message.
    pub(crate) fn error(&mut self, spans: impl Into<Spans>, message: impl Display) {
        self.push(spans.into().error(message));
    }

    /// Records the error of a `Result`, returning its value if any.
    pub(crate) fn ok<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                self.push(e);
                None
            }
        }
    }

    /// Finishes: every recorded error combined into one, in the order found.
    pub(crate) fn check(mut self) -> syn::Result<()> {
        let mut errors = self.errors.take().expect("Ctxt checked twice").into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            combined.combine(error);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        assert!(self.errors.is_none() || std::thread::panicking(), "restlight-macros: Ctxt dropped without check()");
    }
}

/// A message followed by a `help:` line, the way every error of this crate
/// reads.
pub(crate) fn with_help(message: impl Display, help: impl Display) -> String {
    format!("{message}\n\nhelp: {help}")
}

/// The first and last token of a piece of code: an error spanning both
/// underlines all of it (stable rustc cannot join spans into one).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Spans {
    pub(crate) start: Span,
    pub(crate) end: Span,
}

impl Spans {
    /// The spans of the first and last token of `tokens`.
    pub(crate) fn of(tokens: &impl ToTokens) -> Self {
        let mut iter = tokens.to_token_stream().into_iter();
        let start = iter.next().map_or_else(Span::call_site, |t| t.span());
        let end = iter.last().map_or(start, |t| t.span());
        Self { start, end }
    }

    /// An error underlining the whole range.
    pub(crate) fn error(self, message: impl Display) -> syn::Error {
        let mut first = Punct::new('<', Spacing::Alone);
        first.set_span(self.start);
        let mut last = Punct::new('>', Spacing::Alone);
        last.set_span(self.end);
        let tokens: TokenStream = [TokenTree::Punct(first), TokenTree::Punct(last)].into_iter().collect();
        syn::Error::new_spanned(tokens, message)
    }
}

impl From<Span> for Spans {
    fn from(span: Span) -> Self {
        Self { start: span, end: span }
    }
}
