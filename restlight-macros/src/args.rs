//! Reading the arguments of the helper attributes: string literals, media
//! types, codec names, executors, flags and type lists. Each reader reports
//! a malformed argument at its token, with the form the attribute expects.

use proc_macro2::TokenStream;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, LitStr, Meta, Token};

use crate::ctxt::{with_help, Spans};
use crate::helpers::{helper, Helper};
use crate::model::{Scheduler, Spanned};

pub(crate) fn args_tokens(attr: &Attribute) -> syn::Result<Option<TokenStream>> {
    match &attr.meta {
        Meta::Path(_) => Ok(None),
        Meta::List(list) => Ok(Some(list.tokens.clone())),
        Meta::NameValue(nv) => {
            let name = helper(attr).map_or("attr", Helper::name);
            Err(syn::Error::new(
                nv.eq_token.span,
                with_help(
                    format!("`#[{name} = ..]` is not a Restlight attribute form"),
                    format!("write the argument in parentheses: `#[{name}(\"..\")]`"),
                ),
            ))
        }
    }
}

/// `#[x]` or `#[x("text")]`.
pub(crate) fn optional_lit(attr: &Attribute, what: &str) -> syn::Result<Option<LitStr>> {
    let Some(tokens) = args_tokens(attr)? else {
        return Ok(None);
    };
    if tokens.is_empty() {
        return Ok(None);
    }
    let name = helper(attr).map_or("attr", Helper::name);
    syn::parse2::<LitStr>(tokens).map(Some).map_err(|e| {
        syn::Error::new(
            e.span(),
            with_help(
                format!("`#[{name}]` takes one string literal, {what}"),
                format!("write `#[{name}]` or `#[{name}(\"..\")]`"),
            ),
        )
    })
}

/// `#[x("text")]`, the argument required.
pub(crate) fn required_lit(attr: &Attribute, what: &str, example: &str) -> syn::Result<LitStr> {
    let name = helper(attr).map_or("attr", Helper::name);
    let wrong = |spans: Spans| {
        spans.error(with_help(format!("`#[{name}]` takes one string literal, {what}"), format!("write `{example}`")))
    };
    match args_tokens(attr)? {
        None => Err(wrong(Spans::of(attr))),
        Some(tokens) if tokens.is_empty() => Err(wrong(Spans::of(attr))),
        Some(tokens) => syn::parse2::<LitStr>(tokens).map_err(|e| wrong(e.span().into())),
    }
}

/// `#[context]`, `#[bean_param]`: no argument.
pub(crate) fn no_args(attr: &Attribute) -> syn::Result<()> {
    no_args_because(attr, "")
}

/// As [`no_args`], with `help` for the help line (empty: the usual one).
pub(crate) fn no_args_because(attr: &Attribute, help: &str) -> syn::Result<()> {
    match args_tokens(attr)? {
        Some(tokens) if !tokens.is_empty() => {
            let name = helper(attr).map_or("attr", Helper::name);
            let help = if help.is_empty() {
                format!("write `#[{name}]`: the parameter's type says what it is")
            } else {
                format!("write `#[{name}]`: {help}")
            };
            Err(syn::Error::new_spanned(tokens, with_help(format!("`#[{name}]` takes no argument"), help)))
        }
        _ => Ok(()),
    }
}

struct LitList(Punctuated<LitStr, Token![,]>);

impl Parse for LitList {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        Punctuated::parse_terminated(input).map(Self)
    }
}

/// `#[produces("a/b", "c/d")]`: the media types, each checked.
pub(crate) fn media_list(attr: &Attribute) -> syn::Result<Spanned<Vec<String>>> {
    let name = helper(attr).map_or("attr", Helper::name);
    let usage = format!("write `#[{name}(\"application/json\")]` or `#[{name}(\"text/plain\", \"text/html\")]`");
    let tokens = args_tokens(attr)?.unwrap_or_default();
    let list = syn::parse2::<LitList>(tokens).map_err(|e| {
        syn::Error::new(e.span(), with_help(format!("`#[{name}]` takes media types as string literals"), &usage))
    })?;
    if list.0.is_empty() {
        return Err(syn::Error::new_spanned(
            attr,
            with_help(format!("`#[{name}]` needs at least one media type"), &usage),
        ));
    }
    let mut errors: Option<syn::Error> = None;
    let mut types = Vec::new();
    for lit in &list.0 {
        let value = lit.value();
        match check_media_type(&value) {
            Ok(()) => types.push(value),
            Err(why) => {
                let help = if why.starts_with("`qs=") {
                    "`qs` is the server's preference among the types, from 0 to 1 (default 1): `text/html; qs=0.5`"
                        .to_owned()
                } else if value.contains('/') {
                    "a media type is `type/subtype` with optional `; name=value` parameters".to_owned()
                } else {
                    format!("write the full media type, e.g. `{}`", guess_media(&value))
                };
                let e = syn::Error::new(lit.span(), with_help(format!("`{value}` is not a media type: {why}"), help));
                match &mut errors {
                    Some(all) => all.combine(e),
                    None => errors = Some(e),
                }
            }
        }
    }
    match errors {
        Some(e) => Err(e),
        None => Ok(Spanned::new(types, Spans::of(attr))),
    }
}

fn guess_media(value: &str) -> &'static str {
    match value.to_ascii_lowercase().as_str() {
        "text" | "plain" | "txt" => "text/plain",
        "html" => "text/html",
        "xml" => "application/xml",
        "form" => "application/x-www-form-urlencoded",
        "bytes" | "binary" | "octet-stream" => "application/octet-stream",
        _ => "application/json",
    }
}

/// `type/subtype *( ";" name=value )` (RFC 9110 section 8.3.1), parsed by
/// the grammar `MediaType::parse` uses at startup.
fn check_media_type(value: &str) -> Result<(), String> {
    let parsed = restlight_grammar::media::parse(value).map_err(|e| e.to_string())?;
    // `qs`, the server's quality of a produced type, is a weight.
    let qs = parsed.params.iter().find(|p| p.name.eq_ignore_ascii_case("qs"));
    match qs {
        Some(qs) if !qs.value.parse::<f32>().is_ok_and(|w| (0.0..=1.0).contains(&w)) => {
            Err(format!("`qs={}` is not a number from 0 to 1", qs.value))
        }
        _ => Ok(()),
    }
}

/// `#[serializer("msgpack")]` and friends: a codec's format name or media type.
pub(crate) fn codec_name(attr: &Attribute) -> syn::Result<Spanned<String>> {
    let name = helper(attr).map_or("attr", Helper::name);
    let example = format!("#[{name}(\"msgpack\")]");
    let lit = required_lit(attr, "the codec's format name or media type", &example)?;
    let value = lit.value();
    let valid = if value.contains('/') {
        check_media_type(&value).map_err(|why| format!("`{value}` is not a media type: {why}"))
    } else if restlight_grammar::media::is_token(&value) {
        Ok(())
    } else {
        Err(format!("`{value}` is neither a format name nor a media type"))
    };
    valid.map_err(|message| {
        syn::Error::new(
            lit.span(),
            with_help(
                message,
                format!("write a format name, `{example}`, or a media type, `#[{name}(\"application/msgpack\")]`; built in: json, msgpack, cbor, form, text"),
            ),
        )
    })?;
    Ok(Spanned::new(value, lit.span()))
}

/// `#[compress(false)]` or `#[compress(true)]`.
pub(crate) fn compress(attr: &Attribute) -> syn::Result<Spanned<bool>> {
    const USAGE: &str = "write `#[compress(false)]` to send this route's responses uncompressed";
    let tokens = args_tokens(attr)?.unwrap_or_default();
    match syn::parse2::<syn::LitBool>(tokens.clone()) {
        Ok(b) => Ok(Spanned::new(b.value, b.span)),
        Err(_) if tokens.is_empty() => {
            Err(syn::Error::new_spanned(attr, with_help("`#[compress]` needs `true` or `false`", USAGE)))
        }
        Err(_) => Err(syn::Error::new_spanned(tokens, with_help("`#[compress]` takes `true` or `false`", USAGE))),
    }
}

/// `#[scheduled(io)]`, `#[scheduled(biz)]`, `#[scheduled("name")]`.
pub(crate) fn scheduler(attr: &Attribute) -> syn::Result<Spanned<Scheduler>> {
    const USAGE: &str = "write `#[scheduled(io)]`, `#[scheduled(biz)]`, or `#[scheduled(\"name\")]` for an executor registered under that name";
    let tokens = args_tokens(attr)?.unwrap_or_default();
    if tokens.is_empty() {
        return Err(syn::Error::new_spanned(attr, with_help("`#[scheduled]` needs the executor to run on", USAGE)));
    }
    let span = Spans::of(attr);
    if let Ok(ident) = syn::parse2::<Ident>(tokens.clone()) {
        return match ident.to_string().as_str() {
            "io" => Ok(Spanned::new(Scheduler::Io, span)),
            "biz" => Ok(Spanned::new(Scheduler::Biz, span)),
            other => {
                let lower = other.to_ascii_lowercase();
                let message = if lower == "io" || lower == "biz" {
                    format!("unknown scheduler `{other}`; did you mean `{lower}`?")
                } else {
                    format!("unknown scheduler `{other}`")
                };
                Err(syn::Error::new(ident.span(), with_help(message, USAGE)))
            }
        };
    }
    if let Ok(lit) = syn::parse2::<LitStr>(tokens.clone()) {
        let name = lit.value();
        let lower = name.trim().to_ascii_lowercase();
        if lower == "io" || lower == "biz" {
            return Err(syn::Error::new(
                lit.span(),
                with_help(
                    format!("the executor name `{name}` is reserved"),
                    format!("write `#[scheduled({lower})]` for the built-in executor"),
                ),
            ));
        }
        if name.trim().is_empty() {
            return Err(syn::Error::new(lit.span(), with_help("an executor name cannot be empty", USAGE)));
        }
        return Ok(Spanned::new(Scheduler::Named(name), span));
    }
    Err(syn::Error::new_spanned(tokens, with_help("unknown scheduler syntax", USAGE)))
}

/// `#[skip_interceptor(Auth, crate::Audit)]`: the interceptor types.
pub(crate) fn type_list(attr: &Attribute) -> syn::Result<Vec<syn::Path>> {
    const USAGE: &str = "name the interceptor types: `#[skip_interceptor(Auth)]` or `#[skip_interceptor(Auth, Audit)]`";
    let tokens = args_tokens(attr)?.unwrap_or_default();
    let list = syn::parse::Parser::parse2(Punctuated::<syn::Path, Token![,]>::parse_terminated, tokens)
        .map_err(|e| syn::Error::new(e.span(), with_help("`#[skip_interceptor]` takes type paths", USAGE)))?;
    if list.is_empty() {
        return Err(syn::Error::new_spanned(attr, with_help("`#[skip_interceptor]` needs at least one type", USAGE)));
    }
    Ok(list.into_iter().collect())
}

/// `#[tag("users", "admin")]`: the OpenAPI tag names, at least one, none
/// empty.
pub(crate) fn tag_list(attr: &Attribute) -> syn::Result<Vec<Spanned<String>>> {
    const USAGE: &str = "name the tags: `#[tag(\"users\")]` or `#[tag(\"users\", \"admin\")]`";
    let tokens = args_tokens(attr)?.unwrap_or_default();
    let list = syn::parse::Parser::parse2(Punctuated::<LitStr, Token![,]>::parse_terminated, tokens)
        .map_err(|e| syn::Error::new(e.span(), with_help("`#[tag]` takes string literals", USAGE)))?;
    if list.is_empty() {
        return Err(syn::Error::new_spanned(attr, with_help("`#[tag]` needs at least one tag name", USAGE)));
    }
    list.into_iter()
        .map(|lit| {
            let name = lit.value();
            if name.trim().is_empty() {
                return Err(syn::Error::new(lit.span(), with_help("a tag name cannot be empty", USAGE)));
            }
            Ok(Spanned::new(name, Spans::from(lit.span())))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types() {
        assert!(check_media_type("application/json").is_ok());
        assert!(check_media_type("text/plain; charset=utf-8").is_ok());
        assert!(check_media_type("*/*").is_ok());
        assert!(check_media_type("text/*").is_ok());
        assert!(check_media_type("application/vnd.api+json").is_ok());
        assert!(check_media_type("json").is_err());
        assert!(check_media_type("text/").is_err());
        assert!(check_media_type("*/json").is_err());
        assert!(check_media_type("text/plain; charset").is_err());
        assert!(check_media_type("text /plain").is_err());
    }
}
