//! From the user's item to the model. Every helper attribute is read and
//! removed from the item (so the item can be emitted as is), every syntax
//! mistake and every repeated attribute is recorded in the context, and each
//! route's settings are resolved against its impl block's; the semantic
//! checks are `validate`'s.

mod item;
mod param;

use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned as _;
use syn::{Attribute, FnArg, ImplItem, ItemFn, ItemImpl, LitStr, ReturnType, Signature, Type};

pub(crate) use self::param::explicit_name;

use self::item::ItemAttrs;
use crate::ctxt::{with_help, Ctxt, Spans};
use crate::helpers::{self, Place};
use crate::model::{
    ExceptionHandler, HttpMethod, Locator, LocatorReturn, LocatorShape, Owner, Receiver, Resource, Route, Spanned,
};
use crate::settings::{Declared, Effective};
use crate::template::Template;
use crate::ty;

/// Reads `#[restlight::path(args)] impl ..`.
pub(crate) fn resource(cx: &mut Ctxt, args: TokenStream, item: &mut ItemImpl) -> Resource {
    resource_or_sub(cx, args, item, false)
}

/// Reads `#[restlight::path(args)] impl ..`, or with `sub`
/// `#[restlight::sub_resource] impl ..`, which has no base path.
pub(crate) fn resource_or_sub(cx: &mut Ctxt, args: TokenStream, item: &mut ItemImpl, sub: bool) -> Resource {
    let base = match syn::parse2::<LitStr>(args.clone()) {
        _ if sub => None,
        Ok(lit) => Template::parse(cx, &lit),
        Err(_) => {
            let span = if args.is_empty() { Span::call_site() } else { args.span() };
            cx.error(
                span,
                with_help(
                    "`#[restlight::path]` needs the base path of the resource as a string literal",
                    "write `#[restlight::path(\"/users\")]`; use `\"/\"` for the root",
                ),
            );
            None
        }
    };
    if let Some((_, trait_path, _)) = &item.trait_ {
        cx.error(
            Spans::of(trait_path),
            with_help(
                "`#[restlight::path]` goes on an inherent impl block, not on a trait impl",
                "move the handlers into `impl Type { .. }`",
            ),
        );
    }
    let generics = (!item.generics.params.is_empty()).then(|| Spans::of(&item.generics.params));
    let mut attrs = ItemAttrs::new(None);
    attrs.read(cx, &mut item.attrs, Place::Impl);
    let mut routes = Vec::new();
    let mut handlers = Vec::new();
    let mut locators = Vec::new();
    for impl_item in &mut item.items {
        if let ImplItem::Fn(f) = impl_item {
            let cfgs = cfgs(&f.attrs);
            match method(cx, &mut f.attrs, &mut f.sig, &attrs.settings, attrs.encoded.is_set()) {
                Some(Method::Route(mut route)) => {
                    route.cfgs = cfgs;
                    route.waits = may_wait(&f.block);
                    routes.push(*route);
                }
                Some(Method::Handler(mut handler)) => {
                    handler.cfgs = cfgs;
                    handlers.push(handler);
                }
                Some(Method::Locator(mut locator)) => {
                    locator.route.cfgs = cfgs;
                    locators.push(*locator);
                }
                None => {}
            }
        }
    }
    Resource {
        self_ty: (*item.self_ty).clone(),
        name: ty::type_string(&item.self_ty),
        generics,
        base,
        routes,
        handlers,
        locators,
        sub,
    }
}

/// What a method of a resource impl block is to the macro.
enum Method {
    Route(Box<Route>),
    Handler(ExceptionHandler),
    Locator(Box<Locator>),
}

/// Reads a method of a `#[restlight::path]` impl block whose own settings
/// are `inherited`: a route when it has a method attribute.
fn method(
    cx: &mut Ctxt,
    attrs: &mut Vec<Attribute>,
    sig: &mut Signature,
    inherited: &Declared,
    impl_encoded: bool,
) -> Option<Method> {
    let mut read = ItemAttrs::new(Some(sig.ident.clone()));
    read.read(cx, attrs, Place::Method);
    if read.exception_handler.is_set() {
        return Some(Method::Handler(exception_handler(&read, sig)));
    }
    let Some(method) = read.method.get().cloned() else {
        if let Some(&span) = read.path_attrs.first() {
            let placeholder = Spanned::new(HttpMethod::Get, span);
            let mut route = route(cx, Owner::Resource, placeholder, read, Some(inherited), sig);
            route.encoded |= impl_encoded;
            let returns = route.output.as_ref().map(|t| {
                if let Some(inner) = ty::option_of(t) {
                    LocatorReturn { target: inner.clone(), shape: LocatorShape::Option }
                } else if let Some(inner) = ty::result_ok(t) {
                    LocatorReturn { target: inner.clone(), shape: LocatorShape::Result }
                } else {
                    LocatorReturn { target: t.clone(), shape: LocatorShape::Plain }
                }
            });
            return Some(Method::Locator(Box::new(Locator { route, returns })));
        } else if let Some(span) = read.settings.first_span() {
            cx.error(
                span,
                with_help(
                    "this method has no method attribute, so it is not a route",
                    "add `#[get]`, `#[post]`, ... to make it a route, or remove the attribute",
                ),
            );
        }
        not_a_route_params(cx, sig);
        return None;
    };
    let mut route = route(cx, Owner::Resource, method, read, Some(inherited), sig);
    route.encoded |= impl_encoded;
    Some(Method::Route(Box::new(route)))
}

/// Reads an `#[exception_handler]` method; `validate` judges it.
fn exception_handler(read: &ItemAttrs, sig: &Signature) -> ExceptionHandler {
    let mut receiver = Receiver::None;
    let mut params = Vec::new();
    for arg in &sig.inputs {
        match arg {
            FnArg::Receiver(r) => receiver = receiver_kind(r),
            FnArg::Typed(pt) => {
                let error_ty = match &*pt.ty {
                    Type::Reference(r) if r.mutability.is_none() => Some((*r.elem).clone()),
                    _ => None,
                };
                params.push((error_ty, Spans::of(pt)));
            }
        }
    }
    let mut route_attrs: Vec<Spans> = read.method.span().into_iter().collect();
    route_attrs.extend(read.path_attrs.iter().copied());
    ExceptionHandler {
        ident: sig.ident.clone(),
        receiver,
        is_async: sig.asyncness.is_some(),
        fn_span: sig.fn_token.span,
        params,
        route_attrs,
        cfgs: Vec::new(),
        types: Vec::new(),
    }
}

/// Reads `#[restlight::get(args)] fn ..` (or another method).
pub(crate) fn free_route(cx: &mut Ctxt, method: HttpMethod, args: TokenStream, item: &mut ItemFn) -> Route {
    let mut read = ItemAttrs::new(Some(item.sig.ident.clone()));
    let method = Spanned::new(method, Span::call_site());
    read.method(cx, method.clone());
    if !args.is_empty() {
        match syn::parse2::<LitStr>(args.clone()) {
            Ok(lit) => read.path(cx, &lit),
            Err(_) => {
                let name = method.value.attr_name();
                cx.error(
                    args.span(),
                    with_help(
                        format!("`#[restlight::{name}]` takes the path as one string literal"),
                        format!("write `#[restlight::{name}(\"/hello\")]`"),
                    ),
                );
                read.bad_path = true;
            }
        }
    }
    let cfgs = cfgs(&item.attrs);
    read.read(cx, &mut item.attrs, Place::FreeFn);
    let mut route = route(cx, Owner::Free, method, read, None, &mut item.sig);
    route.cfgs = cfgs;
    route.waits = may_wait(&item.block);
    route
}

/// Whether a handler's body may wait: it holds an `await` or a macro call
/// (a macro may expand to one). An `async fn` whose body does neither is
/// ready on its first poll, so its route answers when it is called
/// (`Handler::immediate`), without a boxed future.
fn may_wait(block: &syn::Block) -> bool {
    fn scan(tokens: TokenStream) -> bool {
        let mut after_path = false;
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Ident(ident) => {
                    if ident == "await" {
                        return true;
                    }
                    after_path = true;
                }
                proc_macro2::TokenTree::Punct(punct)
                    if punct.as_char() == '!' && punct.spacing() == proc_macro2::Spacing::Alone && after_path =>
                {
                    return true
                }
                proc_macro2::TokenTree::Punct(_) => after_path = false,
                proc_macro2::TokenTree::Group(group) => {
                    if scan(group.stream()) {
                        return true;
                    }
                    after_path = false;
                }
                proc_macro2::TokenTree::Literal(_) => after_path = false,
            }
        }
        false
    }
    scan(quote::ToTokens::to_token_stream(block))
}

/// The `#[cfg(..)]` attributes among `attrs`.
fn cfgs(attrs: &[Attribute]) -> Vec<Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("cfg")).cloned().collect()
}

/// A method that is not a route keeps its parameters, but ours on them are
/// a mistake: it probably lacks its method attribute.
fn not_a_route_params(cx: &mut Ctxt, sig: &mut Signature) {
    for arg in &mut sig.inputs {
        if let FnArg::Typed(pt) = arg {
            pt.attrs.retain(|a| match helpers::helper(a) {
                Some(h) if h.may_stand(Place::Param) || h.may_stand(Place::Entity) => {
                    cx.error(
                        Spans::of(a),
                        with_help(
                            format!("`#[{}]` on a parameter of a method that is not a route", h.name()),
                            "add `#[get]`, `#[post]`, ... to the method to make it a route",
                        ),
                    );
                    false
                }
                _ => true,
            });
        }
    }
}

/// Reads a route: its signature and parameters, and the settings that apply
/// to it, its own (`read`) over its impl block's (`inherited`).
fn route(
    cx: &mut Ctxt,
    owner: Owner,
    method: Spanned<HttpMethod>,
    read: ItemAttrs,
    inherited: Option<&Declared>,
    sig: &mut Signature,
) -> Route {
    let generics = sig.generics.params.iter().find(|p| !matches!(p, syn::GenericParam::Lifetime(_))).map(Spans::of);
    if let Some(unsafety) = &sig.unsafety {
        cx.error(
            unsafety.span,
            with_help(
                "a route handler cannot be an `unsafe fn`",
                "make the function safe and put the `unsafe` block inside it",
            ),
        );
    }
    let mut receiver = Receiver::None;
    let mut params = Vec::new();
    for arg in &mut sig.inputs {
        match arg {
            FnArg::Receiver(r) => {
                receiver = receiver_kind(r);
                r.attrs.retain(|a| {
                    let ours = helpers::helper(a).is_some();
                    if ours {
                        cx.error(Spans::of(a), with_help("the receiver takes no Restlight attribute", "remove it"));
                    }
                    !ours
                });
            }
            FnArg::Typed(pt) => {
                let index = params.len();
                params.push(param::param(cx, index, pt));
            }
        }
    }
    let encoded = read.encoded.is_set();
    let entity_codec = params.iter().find_map(|p| p.request_serializer.get());
    let settings = Effective::resolve(&read.settings, inherited, entity_codec);
    Route {
        owner,
        method,
        path: read.path.into_inner().map(|t| t.value),
        bad_path: read.bad_path,
        settings,
        cfgs: Vec::new(),
        ident: sig.ident.clone(),
        is_async: sig.asyncness.is_some(),
        fn_span: sig.fn_token.span,
        receiver,
        generics,
        params,
        output: match &sig.output {
            ReturnType::Default => None,
            ReturnType::Type(_, t) => Some((**t).clone()),
        },
        status: None,
        conditions: crate::spring::Conditions::default(),
        encoded,
        waits: true,
    }
}

fn receiver_kind(r: &syn::Receiver) -> Receiver {
    let what = if r.reference.is_some() {
        if r.mutability.is_none() {
            return Receiver::Ref;
        }
        "`&mut self`".to_owned()
    } else if r.colon_token.is_none() {
        "`self` by value".to_owned()
    } else {
        match &*r.ty {
            Type::Reference(t) if t.mutability.is_none() && is_self(&t.elem) => return Receiver::Ref,
            Type::Reference(t) if is_self(&t.elem) => "`&mut self`".to_owned(),
            ty if is_self(ty) => "`self` by value".to_owned(),
            ty => format!("`self: {}`", ty::type_string(ty)),
        }
    };
    Receiver::Invalid { span: Spans::of(r), what }
}

fn is_self(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident("Self"))
}
