//! What a route's descriptor says for the OpenAPI document: the doc
//! comment, `#[deprecated]` and `#[tag]`s of the handler, a schema per parameter and
//! the responses its return type declares. Emitted as one call of
//! `__private::route_doc!`, which expands to `()` when the `openapi`
//! feature of the framework is off: a user's crate never needs a `cfg`.
//!
//! The return type is read by its syntax, as parameters are: `Created<T>`
//! is 201, `NoContent` and `()` 204, `WithStatus<202, T>` and
//! `EmptyStatus<202>` the status they name (a literal), `Option<T>` adds 404, `Result<T, E>`
//! adds `E`'s statuses, `Json<T>` and any other type are 200, and types
//! whose status is chosen at run time (`StatusCode`, `Response`,
//! `impl IntoResponse`, ...) document any status.

use std::collections::HashMap;

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::visit_mut::VisitMut;
use syn::{Attribute, GenericArgument, Lifetime, PathArguments, Type};

use crate::model::{Param, Route, Source};
use crate::ty::{self, ValueShape};

/// The doc comment and deprecation of each function of an item, by name.
#[derive(Debug, Default)]
pub(crate) struct Docs(HashMap<String, (String, bool)>);

impl Docs {
    /// Reads the functions of an impl block or a function.
    pub(crate) fn of(item: &impl ToTokens) -> Self {
        let mut docs = HashMap::new();
        match syn::parse2::<syn::Item>(item.to_token_stream()) {
            Ok(syn::Item::Impl(imp)) => {
                for it in imp.items {
                    if let syn::ImplItem::Fn(f) = it {
                        docs.insert(f.sig.ident.to_string(), read(&f.attrs));
                    }
                }
            }
            Ok(syn::Item::Fn(f)) => {
                docs.insert(f.sig.ident.to_string(), read(&f.attrs));
            }
            _ => {}
        }
        Self(docs)
    }
}

fn read(attrs: &[Attribute]) -> (String, bool) {
    let mut lines = Vec::new();
    let mut deprecated = false;
    for attr in attrs {
        if attr.path().is_ident("deprecated") {
            deprecated = true;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if nv.path.is_ident("doc") {
                if let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) = &nv.value {
                    let line = s.value();
                    lines.push(line.strip_prefix(' ').unwrap_or(&line).trim_end().to_owned());
                }
            }
        }
    }
    (lines.join("\n").trim().to_owned(), deprecated)
}

/// The `route_doc!` call of one route.
pub(crate) fn route_doc(route: &Route, docs: &Docs, p: &TokenStream, fix: &impl Fn(&Type) -> Type) -> TokenStream {
    let (text, deprecated) = docs.0.get(&route.ident.to_string()).cloned().unwrap_or_default();
    let (summary, description) = match text.split_once("\n\n") {
        Some((first, rest)) => (first.replace('\n', " "), rest.trim().to_owned()),
        None => (text.replace('\n', " "), String::new()),
    };
    let params = route.params.iter().map(|param| param_doc(param, p, fix));
    let mut responses = Vec::new();
    match &route.output {
        None => responses.push(quote!((empty 204))),
        Some(t) => returns(&statik(&fix(t)), &mut responses),
    }
    let tags = &route.settings.tags;
    quote! {
        #p::route_doc! {
            summary = #summary, description = #description, deprecated = #deprecated,
            tags = [#(#tags),*],
            params = [#(#params),*],
            responses = [#(#responses),*],
        }
    }
}

fn param_doc(param: &Param, p: &TokenStream, fix: &impl Fn(&Type) -> Type) -> TokenStream {
    let ty = statik(&fix(&param.ty));
    match param.source() {
        Some(Source::Context) => quote!((Required, (), &[])),
        Some(Source::Bean) => quote!((Required, (), <#ty as #p::BeanParam>::PARAMS)),
        None => quote!((Required, #ty, &[])),
        // A part is taken whole (`Vec<u8>` is its bytes), or `Option` of one.
        Some(Source::Part) => match ty::value_shape(&ty) {
            ValueShape::Optional(t) => quote!((Optional, #t, &[])),
            _ => quote!((Required, #ty, &[])),
        },
        Some(_) => match ty::value_shape(&ty) {
            ValueShape::Required(t) => quote!((Required, #t, &[])),
            ValueShape::Optional(t) => quote!((Optional, #t, &[])),
            ValueShape::Repeated(t) => quote!((Repeated, #t, &[])),
        },
    }
}

/// The responses of a return type, read by its syntax.
fn returns(t: &Type, out: &mut Vec<TokenStream>) {
    let t = match t {
        Type::Paren(p) => &*p.elem,
        Type::Group(g) => &*g.elem,
        other => other,
    };
    match t {
        Type::Tuple(tuple) if tuple.elems.is_empty() => out.push(quote!((empty 204))),
        Type::Path(path) if path.qself.is_none() => {
            let Some(last) = path.path.segments.last() else { return out.push(quote!((any))) };
            // A status in the type: `WithStatus<202, T>`, `EmptyStatus<200>`.
            let code = match &last.arguments {
                PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
                    GenericArgument::Const(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(code), .. })) => {
                        Some(code.clone())
                    }
                    _ => None,
                }),
                _ => None,
            };
            let args: Vec<&Type> = match &last.arguments {
                PathArguments::AngleBracketed(a) => a
                    .args
                    .iter()
                    .filter_map(|g| match g {
                        GenericArgument::Type(t) => Some(t),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            match (last.ident.to_string().as_str(), args.as_slice()) {
                ("NoContent", []) => out.push(quote!((empty 204))),
                ("Created", [inner]) => out.push(quote!((typed 201, #inner))),
                ("Json", [inner]) => out.push(quote!((typed 200, #inner))),
                ("WithStatus", [inner]) => match code {
                    Some(code) => out.push(quote!((typed #code, #inner))),
                    None => out.push(quote!((any))),
                },
                ("EmptyStatus", []) => match code {
                    Some(code) => out.push(quote!((empty #code))),
                    None => out.push(quote!((any))),
                },
                ("Option", [inner]) => {
                    returns(inner, out);
                    out.push(quote!((problem 404)));
                }
                ("Result", [inner, error]) => {
                    returns(inner, out);
                    out.push(quote!((errors #error)));
                }
                ("Result", [inner]) => {
                    returns(inner, out);
                    out.push(quote!((errors())));
                }
                ("StatusCode" | "Response" | "ResponseBuilder" | "HttpError" | "Sse" | "Entity" | "Box", _) => {
                    out.push(quote!((any)));
                }
                _ => out.push(quote!((typed 200, #t))),
            }
        }
        Type::Reference(_) | Type::Array(_) | Type::Slice(_) | Type::Tuple(_) => out.push(quote!((typed 200, #t))),
        _ => out.push(quote!((any))),
    }
}

/// The type with every lifetime `'static`, so that it can be named in the
/// generated functions.
fn statik(t: &Type) -> Type {
    struct Static;
    impl VisitMut for Static {
        fn visit_lifetime_mut(&mut self, l: &mut Lifetime) {
            *l = Lifetime::new("'static", l.apostrophe);
        }
        fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
            if r.lifetime.is_none() {
                r.lifetime = Some(Lifetime::new("'static", proc_macro2::Span::call_site()));
            }
            syn::visit_mut::visit_type_reference_mut(self, r);
        }
    }
    let mut t = t.clone();
    Static.visit_type_mut(&mut t);
    t
}
