//! The macro entry points: parse -> validate -> expand, errors reported
//! next to the user's item, and the `RESTLIGHT_MACROS_DEBUG` switch.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::{parse_quote, Attribute, Item};

use crate::ctxt::{with_help, Ctxt};
use crate::helpers::{self, Place};
use crate::model::HttpMethod;
use crate::{expand, parse, validate};

/// `#[restlight::path("/base")]` on an impl block.
pub(crate) fn resource(args: TokenStream, input: TokenStream) -> TokenStream {
    resource_or_sub(args, input, false)
}

/// `#[restlight::sub_resource]` on an impl block.
pub(crate) fn sub_resource(args: TokenStream, input: TokenStream) -> TokenStream {
    resource_or_sub(args, input, true)
}

fn resource_or_sub(args: TokenStream, input: TokenStream, sub: bool) -> TokenStream {
    let mut item = match syn::parse2::<Item>(input.clone()) {
        Ok(item) => item,
        Err(e) => return with_error(input, e),
    };
    let Item::Impl(imp) = &mut item else {
        let help = if matches!(item, Item::Fn(_)) {
            "for a function write `#[restlight::get(\"/x\")]` (or `post`, `put`, ...); `#[restlight::path]` goes on an impl block"
        } else {
            "write it on an impl block whose methods are the routes: `#[restlight::path(\"/users\")] impl Users { .. }`"
        };
        return with_error(
            item.into_token_stream(),
            syn::Error::new(
                proc_macro2::Span::call_site(),
                with_help("`#[restlight::path]` goes on an impl block", help),
            ),
        );
    };
    let mut cx = Ctxt::new();
    if sub && !args.is_empty() {
        use syn::spanned::Spanned as _;
        cx.error(
            args.span(),
            with_help(
                "`#[restlight::sub_resource]` takes no arguments: a locator's `#[path]` says where it is mounted",
                "write `#[restlight::sub_resource]`",
            ),
        );
    }
    let model = parse::resource_or_sub(&mut cx, args, imp, sub);
    validate::resource(&mut cx, &model);
    match cx.check() {
        Ok(()) => debug(&format!("#[restlight::path] impl {}", model.name), expand::resource(&model, imp)),
        Err(e) => {
            allow_dead_code(&mut imp.attrs);
            with_error(imp.to_token_stream(), e)
        }
    }
}

/// `#[restlight::get("/x")]` (or another method) on a function.
pub(crate) fn route(method: HttpMethod, args: TokenStream, input: TokenStream) -> TokenStream {
    let name = method.attr_name();
    let mut item = match syn::parse2::<Item>(input.clone()) {
        Ok(item) => item,
        Err(e) => return with_error(input, e),
    };
    let Item::Fn(f) = &mut item else {
        let help = if matches!(item, Item::Impl(_)) {
            format!(
                "on an impl block write `#[restlight::path(\"/base\")]`, and `#[{name}]` on the methods that are routes"
            )
        } else {
            format!(
                "write it on a function: `#[restlight::{name}(\"/hello\")] async fn hello() -> &'static str {{ .. }}`"
            )
        };
        return with_error(
            item.into_token_stream(),
            syn::Error::new(
                proc_macro2::Span::call_site(),
                with_help(format!("`#[restlight::{name}]` goes on a function"), help),
            ),
        );
    };
    let mut cx = Ctxt::new();
    let model = parse::free_route(&mut cx, method, args, f);
    validate::route(&mut cx, &model, None);
    match cx.check() {
        Ok(()) => debug(&format!("#[restlight::{name}] fn {}", model.ident), expand::free(&model, f)),
        Err(e) => {
            allow_dead_code(&mut f.attrs);
            with_error(f.to_token_stream(), e)
        }
    }
}

/// `#[restlight::interceptor(..)]` on `impl Interceptor for Type`.
pub(crate) fn interceptor(args: TokenStream, input: TokenStream) -> TokenStream {
    let item =
        match syn::parse2::<syn::ItemImpl>(input.clone()) {
            Ok(item) => item,
            Err(_) => return with_error(
                input,
                syn::Error::new(
                    proc_macro2::Span::call_site(),
                    with_help(
                        "`#[restlight::interceptor]` goes on `impl Interceptor for Type`",
                        "write it on the trait impl: `#[restlight::interceptor(..)] impl Interceptor for Auth { .. }`",
                    ),
                ),
            ),
        };
    let mut cx = Ctxt::new();
    let out = crate::interceptor::expand(&mut cx, args, &item);
    match cx.check() {
        Ok(()) => debug("#[restlight::interceptor]", out),
        Err(e) => with_error(item.to_token_stream(), e),
    }
}

/// A helper (`#[produces]`, `#[timeout]`, ...) where no Restlight macro
/// reads it: above the route attribute, or on an unrelated item. The help
/// line says where the helper table lets it stand.
pub(crate) fn misplaced(helper: &str, input: TokenStream) -> TokenStream {
    let places = helpers::by_name(helper).map_or(&[][..], |e| e.places);
    let mut readers = Vec::new();
    let mut spots = Vec::new();
    if places.iter().any(|p| matches!(p, Place::Impl | Place::Method)) {
        readers.push("`#[restlight::path]`");
    }
    if places.contains(&Place::Impl) {
        spots.push("below `#[restlight::path(..)]` on an impl block".to_owned());
    }
    if places.contains(&Place::Method) && !places.contains(&Place::Impl) {
        spots.push("on a method of a `#[restlight::path(..)]` impl block".to_owned());
    }
    if places.contains(&Place::FreeFn) {
        readers.push("`#[restlight::get]` (`post`, `put`, ...)");
        spots.push("below `#[restlight::get(..)]` on a function".to_owned());
    }
    with_error(
        input,
        syn::Error::new(
            proc_macro2::Span::call_site(),
            with_help(
                format!("`#[{helper}]` is read by {}, which must come first", readers.join(" or ")),
                format!("write `#[{helper}(..)]` {}", spots.join(", or ")),
            ),
        ),
    )
}

/// The user's item, so that it still resolves and the IDE keeps working,
/// with the errors next to it.
pub(crate) fn with_error(item: TokenStream, error: syn::Error) -> TokenStream {
    let errors = error.to_compile_error();
    quote! {
        #item
        #errors
    }
}

/// A route that failed to expand is never called: no dead-code warning on
/// top of the real error.
pub(crate) fn allow_dead_code(attrs: &mut Vec<Attribute>) {
    attrs.push(parse_quote!(#[allow(dead_code)]));
}

/// Prints the expansion to stderr when `RESTLIGHT_MACROS_DEBUG` is set: to
/// `1`, `true` or `all` for every expansion, to any other text for those
/// whose description (`#[restlight::path] impl UserResource`,
/// `#[restlight::get] fn hello`) contains it.
pub(crate) fn debug(what: &str, tokens: TokenStream) -> TokenStream {
    if let Ok(filter) = std::env::var("RESTLIGHT_MACROS_DEBUG") {
        let all = matches!(filter.as_str(), "1" | "true" | "all");
        if !filter.is_empty() && filter != "0" && (all || what.contains(&filter)) {
            eprintln!("// ---- restlight-macros: {what}\n{tokens}\n");
        }
    }
    tokens
}
