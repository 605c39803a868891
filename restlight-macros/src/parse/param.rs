//! The helpers of a route's parameters.

use syn::{Attribute, LitStr, Pat};

use crate::ctxt::{with_help, Ctxt, Spans};
use crate::helpers::{self, Helper};
use crate::model::{Param, Source, Spanned};
use crate::slot::Slot;
use crate::{args, suggest};

/// Reads a parameter and removes its helpers.
pub(super) fn param(cx: &mut Ctxt, index: usize, pt: &mut syn::PatType) -> Param {
    let mut out = Param {
        index,
        ident: match &*pt.pat {
            Pat::Ident(pi) if pi.subpat.is_none() => Some(pi.ident.clone()),
            _ => None,
        },
        source: Slot::default(),
        explicit_name: None,
        default: Slot::default(),
        valid: Slot::default(),
        encoded: Slot::default(),
        optional_entity: false,
        request_serializer: Slot::default(),
        ty: (*pt.ty).clone(),
        span: Spans::of(&*pt),
    };
    pt.attrs.retain(|a| {
        let Some(helper) = helpers::helper(a) else {
            if let Some(e) = suggest::unknown_on_param(a) {
                cx.push(e);
                return false;
            }
            return true;
        };
        match helper {
            Helper::Source(source) => {
                if source == Source::Attribute {
                    cx.ok(args::no_args_because(
                        a,
                        "request attributes are keyed by their type: wrap the value in a newtype to tell two of one type apart",
                    ));
                } else if matches!(source, Source::Context | Source::Bean) {
                    cx.ok(args::no_args(a));
                } else if let Some(lit) = explicit_name(cx, a, source, "the Rust identifier") {
                    out.explicit_name.get_or_insert(lit);
                }
                let name = match &out.ident {
                    Some(i) => format!("`{i}`"),
                    None => format!("parameter {}", index + 1),
                };
                out.source.set_or_else(cx, Spanned::new(source, Spans::of(a)), |first| {
                    (
                        format!("a second source attribute on {name}: it is already `#[{}]`", first.value.attr_name()),
                        helper.once_help().to_owned(),
                    )
                });
            }
            Helper::DefaultValue => {
                let lit = args::required_lit(a, "the value used when absent", "#[default_value(\"20\")]");
                if let Some(lit) = cx.ok(lit) {
                    let span = lit.span();
                    out.default.set(cx, helper, Spans::of(a), Spanned::new(lit, span));
                }
            }
            Helper::Valid => {
                cx.ok(args::no_args(a));
                out.valid.set(cx, helper, Spans::of(a), Spanned::new((), Spans::of(a)));
            }
            Helper::Encoded => {
                cx.ok(args::no_args(a));
                out.encoded.set(cx, helper, Spans::of(a), Spanned::new((), Spans::of(a)));
            }
            Helper::RequestSerializer => {
                if let Some(codec) = cx.ok(args::codec_name(a)) {
                    out.request_serializer.set(cx, helper, Spans::of(a), codec);
                }
            }
            other => cx.error(
                Spans::of(a),
                with_help(
                    format!("`#[{}]` belongs on the method, not on a parameter", other.name()),
                    suggest::param_help(),
                ),
            ),
        }
        false
    });
    out
}

/// The name given in a source attribute (`#[query_param("limit")]`), if
/// any; an empty one is an error saying how to use `fallback` instead.
pub(crate) fn explicit_name(cx: &mut Ctxt, a: &Attribute, source: Source, fallback: &str) -> Option<LitStr> {
    let lit = cx.ok(args::optional_lit(a, "the parameter's name")).flatten()?;
    if lit.value().is_empty() {
        cx.error(
            lit.span(),
            with_help(
                "a parameter name cannot be empty",
                format!("write `#[{}]` to use {fallback}", source.attr_name()),
            ),
        );
    }
    Some(lit)
}
