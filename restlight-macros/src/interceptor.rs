//! `#[restlight::interceptor(includes = [..], excludes = [..], order = N)]`
//! on `impl Interceptor for Type`: registers a `Default`-built instance,
//! collected at link time like routes.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned as _;
use syn::{Expr, ExprLit, ItemImpl, Lit, LitInt, LitStr, MetaNameValue, Token, UnOp};

use crate::ctxt::{with_help, Ctxt};

const USAGE: &str =
    "write `#[restlight::interceptor(includes = [\"/api/**\"], excludes = [\"/api/health\"], order = 10)]`; every argument is optional";

/// What the attribute says.
struct Args {
    includes: Option<Vec<LitStr>>,
    excludes: Vec<LitStr>,
    order: Option<TokenStream>,
}

fn strings(cx: &mut Ctxt, value: &Expr, name: &str) -> Vec<LitStr> {
    let Expr::Array(array) = value else {
        cx.error(value.span(), with_help(format!("`{name}` takes a list of patterns: `[\"/a/**\", \"/b\"]`"), USAGE));
        return Vec::new();
    };
    let mut out = Vec::new();
    for elem in &array.elems {
        match elem {
            Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => {
                if s.value().matches('{').count() != s.value().matches('}').count() {
                    cx.error(s.span(), with_help(format!("unbalanced braces in the pattern `{}`", s.value()), USAGE));
                }
                out.push(s.clone());
            }
            other => cx.error(other.span(), with_help("a pattern is a string literal", USAGE)),
        }
    }
    out
}

fn args(cx: &mut Ctxt, tokens: TokenStream) -> Args {
    let mut out = Args { includes: None, excludes: Vec::new(), order: None };
    let list = match syn::parse::Parser::parse2(Punctuated::<MetaNameValue, Token![,]>::parse_terminated, tokens) {
        Ok(list) => list,
        Err(e) => {
            cx.error(e.span(), with_help("`#[restlight::interceptor]` takes `name = value` arguments", USAGE));
            return out;
        }
    };
    for nv in list {
        let name = nv.path.get_ident().map(ToString::to_string).unwrap_or_default();
        match name.as_str() {
            "includes" => out.includes = Some(strings(cx, &nv.value, "includes")),
            "excludes" => out.excludes = strings(cx, &nv.value, "excludes"),
            "order" => match &nv.value {
                Expr::Lit(ExprLit { lit: Lit::Int(i), .. }) => out.order = Some(order(i, false)),
                Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => match &*u.expr {
                    Expr::Lit(ExprLit { lit: Lit::Int(i), .. }) => out.order = Some(order(i, true)),
                    other => cx.error(other.span(), with_help("`order` is an integer", USAGE)),
                },
                other => cx.error(other.span(), with_help("`order` is an integer", USAGE)),
            },
            _ => {
                cx.error(nv.path.span(), with_help(format!("unknown argument `{}`", nv.path.to_token_stream()), USAGE))
            }
        }
    }
    out
}

fn order(i: &LitInt, negative: bool) -> TokenStream {
    let digits = i.base10_digits();
    let lit = LitInt::new(&format!("{digits}i32"), i.span());
    if negative {
        quote!(-#lit)
    } else {
        quote!(#lit)
    }
}

/// Checks the item and the arguments, and emits the item with its registration.
pub(crate) fn expand(cx: &mut Ctxt, tokens: TokenStream, item: &ItemImpl) -> TokenStream {
    let args = args(cx, tokens);
    if item.trait_.is_none() {
        cx.error(
            Span::call_site(),
            with_help(
                "`#[restlight::interceptor]` goes on `impl Interceptor for Type`",
                "write it on the trait impl: `#[restlight::interceptor(..)] impl Interceptor for Auth { .. }`",
            ),
        );
    }
    if !item.generics.params.is_empty() {
        cx.error(
            item.generics.span(),
            with_help("an interceptor registered by attribute cannot be generic", "implement it for a concrete type"),
        );
    }
    let p = quote!(::restlight::__private);
    let ty = &item.self_ty;
    let make = quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default());
    let includes = args.includes.map(|list| quote!(let __i = __i.includes::<&str>([#(#list),*]);));
    let excludes = &args.excludes;
    let order = args.order.map(|o| quote!(let __i = __i.order(#o);));
    quote! {
        #item
        const _: () = {
            fn __rl_make() -> #p::Intercept {
                let __i = #p::Intercept::new(#make);
                #includes
                let __i = __i.excludes::<&str>([#(#excludes),*]);
                #order
                __i
            }
            #p::inventory::submit! {
                #p::InterceptorDescriptor { make: __rl_make, file: ::core::file!(), line: ::core::line!() }
            }
        };
    }
}
