//! The quantities `#[max_body]` and `#[timeout]` take: a number in the base
//! unit, or a string with a unit (`"16MiB"`, `"2s"`).

use syn::{Attribute, LitStr};

use crate::args::args_tokens;
use crate::ctxt::{with_help, Spans};
use crate::model::Spanned;

/// A number with an optional unit, as `#[max_body]` and `#[timeout]` take
/// it: an integer in the base unit or a string such as `"16MiB"`.
struct Quantity {
    attr: &'static str,
    /// What the string is when it parses: `size`, `duration`.
    kind: &'static str,
    /// What the attribute needs when empty: `the size limit`.
    needs: &'static str,
    /// What an integer is: `a size in bytes`.
    integer: &'static str,
    /// Why zero is refused.
    zero: &'static str,
    usage: &'static str,
    /// Unit spellings and their factor to the base unit.
    units: &'static [(&'static [&'static str], u64)],
}

/// Byte units of `#[max_body]`.
const SIZE_UNITS: &[(&[&str], u64)] = &[
    (&["", "B", "b"], 1),
    (&["KB", "kB", "kb"], 1000),
    (&["KiB", "kiB"], 1 << 10),
    (&["MB", "mb"], 1_000_000),
    (&["MiB"], 1 << 20),
    (&["GB", "gb"], 1_000_000_000),
    (&["GiB"], 1 << 30),
];

/// Time units of `#[timeout]`, in milliseconds.
const TIME_UNITS: &[(&[&str], u64)] = &[(&["", "ms"], 1), (&["s"], 1000), (&["m", "min"], 60_000)];

/// `#[max_body("16MiB")]` or `#[max_body(1024)]`: the largest request
/// entity of the route, in bytes.
pub(crate) fn max_body(attr: &Attribute) -> syn::Result<Spanned<u64>> {
    quantity(
        attr,
        &Quantity {
            attr: "max_body",
            kind: "size",
            needs: "the size limit",
            integer: "a size in bytes",
            zero: "a body limit of zero bytes refuses every entity",
            usage: "write a size such as `#[max_body(\"16MiB\")]`, `#[max_body(\"512KiB\")]` or `#[max_body(1048576)]` (bytes); units: B, KB, KiB, MB, MiB, GB, GiB",
            units: SIZE_UNITS,
        },
    )
}

/// `#[timeout("2s")]`, `#[timeout("500ms")]` or `#[timeout(2000)]`: how
/// long the handler may take, in milliseconds.
pub(crate) fn timeout(attr: &Attribute) -> syn::Result<Spanned<u64>> {
    quantity(
        attr,
        &Quantity {
            attr: "timeout",
            kind: "duration",
            needs: "the time limit",
            integer: "a number of milliseconds",
            zero: "a timeout of zero answers every request 504",
            usage: "write a duration such as `#[timeout(\"2s\")]`, `#[timeout(\"500ms\")]`, `#[timeout(\"1m\")]` or `#[timeout(2000)]` (milliseconds); units: ms, s, m",
            units: TIME_UNITS,
        },
    )
}

fn quantity(attr: &Attribute, q: &Quantity) -> syn::Result<Spanned<u64>> {
    let help = |message: String| with_help(message, q.usage);
    let tokens = args_tokens(attr)?.unwrap_or_default();
    if tokens.is_empty() {
        return Err(syn::Error::new_spanned(attr, help(format!("`#[{}]` needs {}", q.attr, q.needs))));
    }
    let span = Spans::of(attr);
    let parsed = if let Ok(lit) = syn::parse2::<syn::LitInt>(tokens.clone()) {
        (lit.span(), lit.base10_parse::<u64>().map_err(|e| format!("not {}: {e}", q.integer)))
    } else if let Ok(lit) = syn::parse2::<LitStr>(tokens.clone()) {
        let value = lit.value();
        (lit.span(), with_unit(&value, q.units).map_err(|why| format!("`{value}` is not a {}: {why}", q.kind)))
    } else {
        let message = format!("`#[{}]` takes one {}, as a string or an integer", q.attr, q.kind);
        return Err(syn::Error::new_spanned(tokens, help(message)));
    };
    match parsed {
        (at, Ok(0)) => Err(syn::Error::new(at, help(q.zero.to_owned()))),
        (_, Ok(n)) => Ok(Spanned::new(n, span)),
        (at, Err(message)) => Err(syn::Error::new(at, help(message))),
    }
}

/// `16MiB`, `16 MiB`, `2s`, `100`: decimal digits and an optional unit of
/// `units`, in the base unit.
fn with_unit(text: &str, units: &[(&[&str], u64)]) -> Result<u64, String> {
    let text = text.trim();
    let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    if number.is_empty() {
        return Err("it does not start with a number".into());
    }
    let number: u64 = number.parse().map_err(|e| format!("{e}"))?;
    let unit = unit.trim();
    let Some((_, factor)) = units.iter().find(|(names, _)| names.contains(&unit)) else {
        return Err(format!("unknown unit `{unit}`"));
    };
    number.checked_mul(*factor).ok_or_else(|| "it overflows 64 bits".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        let parse_size = |text: &str| with_unit(text, SIZE_UNITS);
        assert_eq!(parse_size("16MiB"), Ok(16 << 20));
        assert_eq!(parse_size("16 MiB"), Ok(16 << 20));
        assert_eq!(parse_size("512KiB"), Ok(512 << 10));
        assert_eq!(parse_size("10MB"), Ok(10_000_000));
        assert_eq!(parse_size("100"), Ok(100));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert!(parse_size("MiB").is_err());
        assert!(parse_size("16 mebibytes").is_err());
        assert!(parse_size("99999999999999GiB").is_err());
    }
}
