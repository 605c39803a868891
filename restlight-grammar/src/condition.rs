//! Routing conditions on a request parameter or header, as Spring's
//! `@RequestMapping(params = .., headers = ..)` writes them:
//!
//! | condition | holds when |
//! |---|---|
//! | `name` | the parameter (header) is present |
//! | `!name` | it is absent |
//! | `name=value` | it is present and its first value is `value` |
//! | `name!=value` | it is absent, or its first value is not `value` |
//!
//! A route's conditions must all hold for the route to match. Names and
//! values are taken as written (no trimming); a value may be empty
//! (`name=` holds for `?name=`).
//!
//! ```
//! use restlight_grammar::condition::{Condition, Test};
//!
//! let c = Condition::parse("version!=2").unwrap();
//! assert_eq!((c.name(), c.test()), ("version", &Test::NotEquals("2".into())));
//! assert!(c.holds(None) && c.holds(Some("1")) && !c.holds(Some("2")));
//! assert_eq!(c.to_string(), "version!=2");
//!
//! let err = Condition::parse("!version=2").unwrap_err();
//! assert_eq!(err.to_string(), "`!` before a name that has a value: write `version!=2`");
//! ```

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// One parsed condition: a name and what must hold of it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Condition<'a> {
    name: Cow<'a, str>,
    test: Test<'a>,
}

/// What a [`Condition`] requires of the named parameter or header.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Test<'a> {
    /// `name`: present.
    Present,
    /// `!name`: absent.
    Absent,
    /// `name=value`: present with this first value.
    Equals(Cow<'a, str>),
    /// `name!=value`: absent, or with another first value.
    NotEquals(Cow<'a, str>),
}

/// Why a condition does not parse; [`at`](Self::at) is the byte range of
/// the fault in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionError {
    kind: ErrorKind,
    at: Range<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ErrorKind {
    Empty,
    NoName,
    BadChar(char),
    NegatedValue { name: String, value: String },
}

impl ConditionError {
    /// The bytes of the text at fault.
    #[must_use]
    pub fn at(&self) -> Range<usize> {
        self.at.clone()
    }
}

impl fmt::Display for ConditionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Empty => f.write_str("an empty condition"),
            ErrorKind::NoName => f.write_str("a condition without a name"),
            ErrorKind::BadChar(c) => write!(f, "{c:?} in the name of a condition"),
            ErrorKind::NegatedValue { name, value } => {
                write!(f, "`!` before a name that has a value: write `{name}!={value}`")
            }
        }
    }
}

impl std::error::Error for ConditionError {}

impl<'a> Condition<'a> {
    /// Parses `name`, `!name`, `name=value` or `name!=value`.
    ///
    /// # Errors
    /// An empty text or name, a name with whitespace, `=`, `!` or a control
    /// character, or `!name=value` (meant as `name!=value`).
    pub fn parse(text: &'a str) -> Result<Self, ConditionError> {
        let err = |kind, at| Err(ConditionError { kind, at });
        if text.is_empty() {
            return err(ErrorKind::Empty, 0..0);
        }
        let (name, name_at, test) = match text.find('=') {
            None => match text.strip_prefix('!') {
                Some(name) => (name, 1..text.len(), Test::Absent),
                None => (text, 0..text.len(), Test::Present),
            },
            Some(eq) => {
                let value = Cow::Borrowed(&text[eq + 1..]);
                match text[..eq].strip_suffix('!') {
                    Some(name) => (name, 0..eq - 1, Test::NotEquals(value)),
                    None => (&text[..eq], 0..eq, Test::Equals(value)),
                }
            }
        };
        if let (Some(bare), Test::Equals(value) | Test::NotEquals(value)) = (name.strip_prefix('!'), &test) {
            let kind = ErrorKind::NegatedValue { name: bare.to_owned(), value: value.clone().into_owned() };
            return err(kind, 0..1);
        }
        if name.is_empty() {
            return err(ErrorKind::NoName, name_at.start..name_at.start.max(text.len().min(name_at.start + 1)));
        }
        if let Some((i, c)) = name.char_indices().find(|&(_, c)| c.is_whitespace() || c.is_control() || c == '!') {
            let start = name_at.start + i;
            return err(ErrorKind::BadChar(c), start..start + c.len_utf8());
        }
        Ok(Condition { name: Cow::Borrowed(name), test })
    }

    /// The parameter's or header's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What must hold of it.
    #[must_use]
    pub fn test(&self) -> &Test<'a> {
        &self.test
    }

    /// Whether the condition holds for a request whose parameter (header)
    /// has `first` as its first value (`None`: absent).
    #[must_use]
    pub fn holds(&self, first: Option<&str>) -> bool {
        match &self.test {
            Test::Present => first.is_some(),
            Test::Absent => first.is_none(),
            Test::Equals(v) => first == Some(&**v),
            Test::NotEquals(v) => first != Some(&**v),
        }
    }

    /// Whether the condition names a value (`name=value`, `name!=value`):
    /// such conditions are more specific than presence tests.
    #[must_use]
    pub fn has_value(&self) -> bool {
        matches!(self.test, Test::Equals(_) | Test::NotEquals(_))
    }

    /// The same condition with its name in ASCII lower case (for headers,
    /// whose names ignore case).
    #[must_use]
    pub fn lowercase_name(self) -> Condition<'a> {
        if self.name.bytes().any(|b| b.is_ascii_uppercase()) {
            Condition { name: Cow::Owned(self.name.to_ascii_lowercase()), test: self.test }
        } else {
            self
        }
    }

    /// The same condition owning its text.
    #[must_use]
    pub fn into_owned(self) -> Condition<'static> {
        let test = match self.test {
            Test::Present => Test::Present,
            Test::Absent => Test::Absent,
            Test::Equals(v) => Test::Equals(Cow::Owned(v.into_owned())),
            Test::NotEquals(v) => Test::NotEquals(Cow::Owned(v.into_owned())),
        };
        Condition { name: Cow::Owned(self.name.into_owned()), test }
    }
}

impl fmt::Display for Condition<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.test {
            Test::Present => f.write_str(&self.name),
            Test::Absent => write!(f, "!{}", self.name),
            Test::Equals(v) => write!(f, "{}={v}", self.name),
            Test::NotEquals(v) => write!(f, "{}!={v}", self.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_form_parses_and_prints_back() {
        for text in ["debug", "!debug", "version=2", "version!=2", "q=", "X-Api=a=b"] {
            assert_eq!(Condition::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(Condition::parse("X-Api=a=b").unwrap().test(), &Test::Equals("a=b".into()));
    }

    #[test]
    fn what_holds() {
        let c = |t| Condition::parse(t).unwrap();
        assert!(c("a").holds(Some("")) && !c("a").holds(None));
        assert!(c("!a").holds(None) && !c("!a").holds(Some("1")));
        assert!(c("a=1").holds(Some("1")) && !c("a=1").holds(Some("2")) && !c("a=1").holds(None));
    }

    #[test]
    fn mistakes_point_at_the_fault() {
        let e = |t| {
            let e = Condition::parse(t).unwrap_err();
            (e.to_string(), e.at())
        };
        assert_eq!(e(""), ("an empty condition".to_owned(), 0..0));
        assert_eq!(e("=2"), ("a condition without a name".to_owned(), 0..1));
        assert_eq!(e("!"), ("a condition without a name".to_owned(), 1..1));
        assert_eq!(e("!=2"), ("a condition without a name".to_owned(), 0..1));
        assert_eq!(e("a b=1"), ("' ' in the name of a condition".to_owned(), 1..2));
        assert_eq!(e("!a=1"), ("`!` before a name that has a value: write `a!=1`".to_owned(), 0..1));
    }
}
