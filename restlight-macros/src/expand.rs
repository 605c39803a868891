//! From a valid model to code. Everything generated names the framework by
//! absolute path through `::restlight::__private` and is lint-clean under
//! `#![deny(warnings)]`.
//!
//! Per route, next to the user's item:
//!
//! ```text
//! const _: () = {
//!     static __RL_PARAMS: [ParamMeta; N] = [..];        // one per parameter, receiver excluded
//!     fn __rl_factory(__b: &mut Bindings<'_>) -> Result<Handler, StartupError> {
//!         let __this = ..;                               // &self routes: the resource instance
//!         let __ctx0 = ..;                               // one per #[context] parameter
//!         { if <entity streams> { __b.stream_body(); } } // a BodyStream entity: no aggregation
//!         Ok(Handler::new(move |__req| {
//!             let __this = Arc::clone(&__this); ..       // clones moved into the future
//!             Box::pin(async move {
//!                 let __a0 = ..;                          // one per parameter, 400 on failure
//!                 let __ret = <Type>::method(&*__this, __a0, ..).await;
//!                 let __res = (&&&&&w(&__ret)).__rl_kind().respond(__ret);
//!                 map_local(__res, ..)                     // only with #[exception_handler]s
//!                 __res
//!             })
//!         }))
//!     }
//!     inventory::submit! { RouteDescriptor { .. } }
//! };
//! ```
//!
//! An `async fn` that cannot wait (no `.await`, no macro call) is instead
//! `Handler::immediate(move |__req: &RequestContext| ..)`, its future polled
//! once where it is called, the resource borrowed from the closure; one that
//! also has no parameter besides `&self` is
//! `Handler::immediate_no_input(move || ..)`.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use restlight_grammar::template as grammar;
use syn::spanned::Spanned as _;
use syn::Type;

use crate::model::{LocatorReturn, LocatorShape, Owner, Param, Receiver, Resource, Route, Scheduler, Source};
use crate::settings::Resolved;
use crate::template;
use crate::ty::{self, ContextShape, ValueShape};

/// The impl block (helpers removed) and one descriptor per route.
pub(crate) fn resource(res: &Resource, item: &impl ToTokens) -> TokenStream {
    let docs = crate::openapi::Docs::of(item);
    if res.sub {
        return sub_resource(res, item, &docs);
    }
    let routes = res.routes.iter().map(|r| route(r, Some(res), &docs, Mode::Root, None));
    let locators = res.locators.iter().map(|l| route(&l.route, Some(res), &docs, Mode::Root, l.returns.as_ref()));
    quote! {
        #item
        #(#routes)*
        #(#locators)*
    }
}

/// `#[restlight::sub_resource]`: the impl block and its `SubResource`
/// table, its routes and its locators' flattened ones.
fn sub_resource(res: &Resource, item: &impl ToTokens, docs: &crate::openapi::Docs) -> TokenStream {
    let p = private();
    let self_ty = &res.self_ty;
    let routes = res.routes.iter().map(|r| route(r, Some(res), docs, Mode::Sub, None));
    let locators = res.locators.iter().map(|l| route(&l.route, Some(res), docs, Mode::Sub, l.returns.as_ref()));
    quote! {
        #item
        #[allow(deprecated)]
        impl #p::SubResource for #self_ty {
            fn sub_routes() -> ::std::vec::Vec<#p::SubRoute<Self>> {
                #[allow(unused_mut)]
                let mut __routes: ::std::vec::Vec<#p::SubRoute<#self_ty>> = ::std::vec::Vec::new();
                #(#routes)*
                #(#locators)*
                __routes
            }
        }
    }
}

/// Where a route's code goes: a root resource's (or a free function's)
/// inventory descriptor, or a sub-resource's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Root,
    Sub,
}

/// The function (helpers removed) and its descriptor.
pub(crate) fn free(route: &Route, item: &impl ToTokens) -> TokenStream {
    let generated = self::route(route, None, &crate::openapi::Docs::of(item), Mode::Root, None);
    quote! {
        #item
        #generated
    }
}

fn private() -> TokenStream {
    quote!(::restlight::__private)
}

/// The code of a route, or of a locator when `locator` is its return type.
fn route(
    route: &Route,
    res: Option<&Resource>,
    docs: &crate::openapi::Docs,
    mode: Mode,
    locator: Option<&LocatorReturn>,
) -> TokenStream {
    let p = private();
    let fix = |t: &Type| match res {
        Some(r) => ty::replace_self(t, &r.self_ty),
        None => t.clone(),
    };

    let metas = route.params.iter().map(|param| param_meta(param, &fix));
    let count = Literal::usize_unsuffixed(route.params.len());

    // Startup: the resource and the #[context] bindings.
    let mut setup = Vec::new();
    let mut per_request = Vec::new();
    let handlers_need_this = res.is_some_and(|r| r.handlers.iter().any(|h| matches!(h.receiver, Receiver::Ref)));
    let root = mode == Mode::Root;
    let this_ref = if root { quote!(&*__this) } else { quote!(&__this) };
    if let (true, true, Some(res)) = (root, matches!(route.receiver, Receiver::Ref) || handlers_need_this, res) {
        let self_ty = &res.self_ty;
        let resource = quote_spanned!(self_ty.span()=> resource::<#self_ty>);
        setup.push(quote! {
            let __this: ::std::sync::Arc<#self_ty> = {
                #[allow(unused_imports)]
                use #p::{WithDefault as _, WithoutDefault as _};
                __b.#resource((&&&#p::DefaultProbe::<#self_ty>::new()).__rl_ctor())?
            };
        });
        per_request.push(quote!(let __this = ::std::sync::Arc::clone(&__this);));
    }
    // An immediate handler borrows the resource from its closure: the
    // clone above (first in `per_request`) is only for futures that own it.
    let borrowed_per_request = per_request.len();

    let local = res.map(|r| local_handlers(r, &p, &this_ref));
    let name = route_name(route, res);

    // Per request: one statement per parameter.
    let mut reads = Vec::new();
    let mut args = Vec::new();
    for param in &route.params {
        let arg = format_ident!("__a{}", param.index);
        let param_ty = fix(&param.ty);
        let index = Literal::usize_unsuffixed(param.index);
        let meta = quote!(&__RL_PARAMS[#index]);
        let read = match param.source() {
            Some(Source::Context) => {
                let slot = format_ident!("__ctx{}", param.index);
                let (bind, read) = context(&p, &param_ty, &slot);
                setup.push(bind);
                per_request.push(quote!(let #slot = ::core::clone::Clone::clone(&#slot);));
                read
            }
            Some(Source::Bean) => {
                let template = descriptor_path(route, res);
                let check = quote_spanned!(param_ty.span()=> #p::check_bean::<#param_ty>);
                setup.push(quote!(#check(__b, #template)?;));
                let read = quote_spanned!(param_ty.span()=> <#param_ty as #p::BeanParam>::from_request);
                quote! {
                    match #read(&__req) {
                        ::core::result::Result::Ok(__v) => __v,
                        ::core::result::Result::Err(__e) => return #p::error_response(__e),
                    }
                }
            }
            Some(Source::Resolve) => {
                let slot = format_ident!("__rs{}", param.index);
                let (bind, read) = resolve(&p, &param_ty, &slot, &meta, &name, local.as_ref());
                setup.push(bind);
                per_request.push(quote!(let #slot = ::core::clone::Clone::clone(&#slot);));
                read
            }
            Some(Source::Attribute) => attribute(&p, &param_ty, &meta, &name),
            Some(Source::Part) => part(&p, &param_ty, &meta),
            Some(source) => {
                let by_item =
                    route.encoded && matches!(source, Source::Path | Source::Query | Source::Matrix | Source::Form);
                let encoded = param.encoded.is_set() || by_item;
                // A path variable of a root route is read at its place in
                // the route's template (the router's order), known here.
                let at = match (source, encoded, root, param.name()) {
                    (Source::Path, false, true, Some(name)) => var_index(&descriptor_path(route, res), &name),
                    _ => None,
                };
                match at {
                    Some(at) => path_value(&p, &param_ty, &meta, at),
                    None => value(&p, &param_ty, &meta, encoded),
                }
            }
            None => {
                setup.push(quote! {
                    {
                        #[allow(unused_imports)]
                        use #p::{StreamsBody as _, BuffersBody as _};
                        if (&&&#p::EntityProbe::<#param_ty>::new()).__rl_streams() {
                            __b.stream_body();
                        }
                    }
                });
                if param.optional_entity {
                    crate::spring::optional_entity(&p, &param_ty, &meta)
                } else if !param.valid.is_set() {
                    entity(&p, &param_ty, &meta)
                } else {
                    let read = entity(&p, &param_ty, &meta);
                    let check = quote_spanned!(param_ty.span()=> #p::validate_entity::<#param_ty>);
                    quote! {
                        {
                            let __v = #read;
                            if let ::core::result::Result::Err(__e) = #check(&__v, #meta) {
                                return #p::error_response(__e);
                            }
                            __v
                        }
                    }
                }
            }
        };
        reads.push(quote!(let #arg = #read;));
        args.push(arg);
    }
    if route.params.iter().any(|param| param.source() == Some(Source::Part)) {
        // The multipart body, read once for every `#[request_part]`.
        reads.insert(
            0,
            quote! {
                let __parts = match #p::Parts::read(&__req).await {
                    ::core::result::Result::Ok(__v) => __v,
                    ::core::result::Result::Err(__e) => return #p::error_response(__e),
                };
            },
        );
    }

    let ident = &route.ident;
    let callee = match (route.owner, res) {
        (Owner::Resource, Some(res)) => {
            let self_ty = &res.self_ty;
            quote!(<#self_ty>::#ident)
        }
        _ => quote!(#ident),
    };
    let receiver = matches!(route.receiver, Receiver::Ref).then(|| quote!(#this_ref,));
    let await_ = route.is_async.then(|| quote!(.await));
    let kind_span = route.output.as_ref().map_or(route.ident.span(), syn::spanned::Spanned::span);
    let kind = quote_spanned!(kind_span=> __rl_kind);

    let doc = crate::openapi::route_doc(route, docs, &p, &fix);
    let cfgs = &route.cfgs;
    if let Some(ret) = locator {
        return locator_code(
            route,
            res,
            ret,
            &fix,
            mode,
            &p,
            LocatorParts {
                metas: metas.collect(),
                count,
                setup,
                per_request,
                reads,
                call: quote!(#callee(#receiver #(#args),*) #await_),
                local,
                doc,
            },
        );
    }
    let status = route.status.as_ref().map(|s| s.apply(&p));
    // The answer to the handler's return value, `call` evaluated once.
    let respond_to = |call: TokenStream| {
        quote! {
            let __ret = #call;
            #[allow(unused_imports)]
            use #p::{
                KindIntoResponse as _, KindResult as _, KindOption as _, KindResultError as _,
                KindSerializeError as _, KindSerialize as _, KindUnsupported as _,
            };
            let __res = (&&&&&#p::w(&__ret)).#kind().respond(__ret);
            #status
            #local
            __res
        }
    };
    let respond = respond_to(quote!(#callee(#receiver #(#args),*) #await_));
    if mode == Mode::Sub {
        let self_ty = res.map(|r| &r.self_ty);
        let common = common_fields(route, &p, &doc);
        let path = descriptor_path(route, res);
        return quote! {
            #(#cfgs)*
            {
                static __RL_PARAMS: [#p::ParamMeta; #count] = [#(#metas),*];

                fn __rl_factory(
                    __b: &mut #p::Bindings<'_>,
                ) -> ::core::result::Result<#p::SubHandler<#self_ty>, #p::StartupError> {
                    #(#setup)*
                    ::core::result::Result::Ok(#p::sub_handler(
                        move |__this: #self_ty, __req: #p::RequestContext| -> #p::BoxFuture<#p::Response> {
                            #(#per_request)*
                            ::std::boxed::Box::pin(async move {
                                #(#reads)*
                                #respond
                            })
                        },
                    ))
                }
                let __factory: #p::SubFactory<#self_ty> = ::std::sync::Arc::new(__rl_factory);
                __routes.push(#p::SubRoute {
                    #common
                    path: ::std::string::String::from(#path),
                    params: __RL_PARAMS.to_vec(),
                    name: ::std::string::String::from(#name),
                    factory: __factory,
                });
            }
        };
    }
    let descriptor = descriptor(route, res, &p, &doc);
    // An `async fn` whose body cannot wait, with parameters read without
    // waiting, answers when it is called: polled once where it is called,
    // it is ready, so no future is boxed for it, and it reads the request
    // by reference, so the request is not moved into it
    // (`Handler::immediate`). Every read borrows `__req`.
    let immediate = route.is_async
        && !route.waits
        && !route.params.iter().any(|param| matches!(param.source(), Some(Source::Part | Source::Resolve)));
    // Nothing read from the request at all (no parameter besides `&self`;
    // exception handlers and `#[response_status]` read only the answer):
    // `Handler::immediate_no_input`, for which a request on an inline
    // route without a body builds no `RequestContext`.
    let no_input = immediate && route.params.is_empty();
    let handler = if no_input {
        let respond = respond_to(quote!(#p::ready_now(#callee(#receiver #(#args),*))));
        quote! {
            #p::Handler::immediate_no_input(move || -> #p::Response {
                #respond
            })
        }
    } else if immediate {
        let respond = respond_to(quote!(#p::ready_now(#callee(#receiver #(#args),*))));
        let per_request = &per_request[borrowed_per_request..];
        quote! {
            #p::Handler::immediate(move |__req: &#p::RequestContext| -> #p::Response {
                #(#per_request)*
                #(#reads)*
                #respond
            })
        }
    } else {
        quote! {
            #p::Handler::new(move |__req: #p::RequestContext| -> #p::BoxFuture<#p::Response> {
                #(#per_request)*
                ::std::boxed::Box::pin(async move {
                    #(#reads)*
                    #respond
                })
            })
        }
    };
    quote! {
        #(#cfgs)*
        #[allow(deprecated)]
        const _: () = {
            static __RL_PARAMS: [#p::ParamMeta; #count] = [#(#metas),*];

            fn __rl_factory(
                __b: &mut #p::Bindings<'_>,
            ) -> ::core::result::Result<#p::Handler, #p::StartupError> {
                #(#setup)*
                ::core::result::Result::Ok(#handler)
            }

            #p::inventory::submit! { #descriptor }
        };
    }
}

/// What `route` prepared of a locator.
struct LocatorParts {
    metas: Vec<TokenStream>,
    count: Literal,
    setup: Vec<TokenStream>,
    per_request: Vec<TokenStream>,
    reads: Vec<TokenStream>,
    call: TokenStream,
    local: Option<TokenStream>,
    doc: TokenStream,
}

/// A sub-resource locator: the step that reads its parameters and calls
/// it, and the flattening of the returned type's routes under its path,
/// submitted (root resource) or added to the owning sub-resource's table.
fn locator_code(
    route: &Route,
    res: Option<&Resource>,
    ret: &LocatorReturn,
    fix: &impl Fn(&Type) -> Type,
    mode: Mode,
    p: &TokenStream,
    parts: LocatorParts,
) -> TokenStream {
    let LocatorParts { metas, count, setup, per_request, reads, call, local, doc } = parts;
    let target = fix(&ret.target);
    let name = route_name(route, res);
    let convert = match ret.shape {
        LocatorShape::Plain => quote!(#p::Located(::core::result::Result::Ok(__ret))),
        LocatorShape::Option => quote!(#p::Located::from_option(__ret, #name)),
        LocatorShape::Result => {
            let kind_span = route.output.as_ref().map_or(route.ident.span(), syn::spanned::Spanned::span);
            let kind = quote_spanned!(kind_span=> __rl_kind);
            quote! {
                match __ret {
                    ::core::result::Result::Ok(__v) => #p::Located(::core::result::Result::Ok(__v)),
                    ::core::result::Result::Err(__e) => {
                        #[allow(unused_imports)]
                        use #p::{
                            KindIntoResponse as _, KindResult as _, KindOption as _, KindResultError as _,
                            KindSerializeError as _, KindSerialize as _, KindUnsupported as _,
                        };
                        let __ret: ::core::result::Result<(), _> = ::core::result::Result::Err(__e);
                        let __res = (&&&&&#p::w(&__ret)).#kind().respond(__ret);
                        #local
                        #p::Located::from(__res)
                    }
                }
            }
        }
    };
    let self_ty = res.map(|r| &r.self_ty);
    let (receiver_ty, receiver_pat) = match mode {
        Mode::Root => (quote!(()), quote!(_)),
        Mode::Sub => (quote!(#self_ty), quote!(__this)),
    };
    let path = descriptor_path(route, res);
    let line = quote_spanned!(route.fn_span=> ::core::line!());
    let (resource, resource_type) = match (mode, res) {
        (Mode::Root, Some(r)) => {
            let resource = &r.name;
            (
                quote!(::core::option::Option::Some(#resource)),
                quote!(::core::option::Option::Some(::core::any::TypeId::of::<#self_ty>)),
            )
        }
        (_, Some(r)) => {
            let resource = &r.name;
            (quote!(::core::option::Option::Some(#resource)), quote!(::core::option::Option::None))
        }
        (_, None) => (quote!(::core::option::Option::None), quote!(::core::option::Option::None)),
    };
    let cfgs = &route.cfgs;
    let items = quote! {
        static __RL_PARAMS: [#p::ParamMeta; #count] = [#(#metas),*];
        static __RL_LOCATOR: #p::LocatorInfo = #p::LocatorInfo {
            path: #path,
            params: &__RL_PARAMS,
            name: #name,
            resource: #resource,
            resource_type: #resource_type,
            file: ::core::file!(),
            line: #line,
            doc: #doc,
        };

        fn __rl_step(
            __b: &mut #p::Bindings<'_>,
        ) -> ::core::result::Result<#p::Step<#receiver_ty, #target>, #p::StartupError> {
            #(#setup)*
            ::core::result::Result::Ok(#p::step(
                move |#receiver_pat: #receiver_ty, __req: #p::RequestContext| -> #p::BoxFuture<(#p::Located<#target>, #p::RequestContext)> {
                    #(#per_request)*
                    ::std::boxed::Box::pin(async move {
                        let __located: #p::Located<#target> = async {
                            #(#reads)*
                            let __ret = #call;
                            #convert
                        }.await;
                        (__located, __req)
                    })
                },
            ))
        }
    };
    let span = ret.target.span();
    match mode {
        Mode::Root => {
            let flatten = quote_spanned!(span=> #p::flatten_root::<#target>);
            quote! {
                #(#cfgs)*
                #[allow(deprecated)]
                const _: () = {
                    #items
                    fn __rl_routes() -> ::std::vec::Vec<#p::FlatRoute> {
                        #flatten(&__RL_LOCATOR, __rl_step)
                    }
                    #p::inventory::submit! { #p::LocatorDescriptor { info: &__RL_LOCATOR, routes: __rl_routes } }
                };
            }
        }
        Mode::Sub => {
            let flatten = quote_spanned!(span=> #p::flatten_nested::<#self_ty, #target>);
            quote! {
                #(#cfgs)*
                {
                    #items
                    __routes.extend(#flatten(&__RL_LOCATOR, __rl_step));
                }
            }
        }
    }
}

/// Reads a path, query, header, cookie, matrix or form value; 400 when it is
/// missing or does not convert. A type that cannot be read from text is
/// reported on the user's type, by the check spanned there.
fn value(p: &TokenStream, param_ty: &Type, meta: &TokenStream, encoded: bool) -> TokenStream {
    let read = read_value_with(p, param_ty, &quote!(&__req), meta, encoded);
    quote! {
        match #read {
            ::core::result::Result::Ok(__v) => __v,
            ::core::result::Result::Err(__e) => return #p::error_response(__e),
        }
    }
}

/// Reads the path variable at `index` among the template's variables
/// (`T` or `Option<T>`); 400 when it is missing or does not convert.
/// Anything else (`Vec<T>`) is read by name, as [`value`] does.
fn path_value(p: &TokenStream, param_ty: &Type, meta: &TokenStream, index: usize) -> TokenStream {
    let shape = ty::value_shape(param_ty);
    let inner = shape.inner();
    let span = inner.span();
    let function = match shape {
        ValueShape::Required(_) => quote_spanned!(span=> path_required::<#inner>),
        ValueShape::Optional(_) => quote_spanned!(span=> path_optional::<#inner>),
        ValueShape::Repeated(_) => return value(p, param_ty, meta, false),
    };
    let check = quote_spanned!(span=> #p::assert_from_param::<#inner>(););
    quote! {
        match {
            #check
            #p::#function(&__req, #meta, #index)
        } {
            ::core::result::Result::Ok(__v) => __v,
            ::core::result::Result::Err(__e) => return #p::error_response(__e),
        }
    }
}

/// The place of the first variable named `name` among the variables of
/// `template`, as the router orders a match's values.
fn var_index(template: &str, name: &str) -> Option<usize> {
    let template = grammar::Template::parse_allowing_duplicates(template).ok()?;
    template
        .pieces()
        .iter()
        .filter_map(|piece| match piece {
            grammar::Piece::Var(var) => Some(var.name.as_ref()),
            grammar::Piece::Literal(_) => None,
        })
        .position(|var| var == name)
}

/// The `Result` of reading a value of `param_ty` (`T`, `Option<T>` or
/// `Vec<T>`) from `req` as `meta` describes; shared by handler parameters
/// and the fields of `#[derive(BeanParam)]`. A type that cannot be read
/// from text is reported on the user's type, by the check spanned there.
pub(crate) fn read_value(p: &TokenStream, param_ty: &Type, req: &TokenStream, meta: &TokenStream) -> TokenStream {
    read_value_with(p, param_ty, req, meta, false)
}

/// [`read_value`], without percent-decoding when `encoded` (`#[encoded]`).
fn read_value_with(
    p: &TokenStream,
    param_ty: &Type,
    req: &TokenStream,
    meta: &TokenStream,
    encoded: bool,
) -> TokenStream {
    let shape = ty::value_shape(param_ty);
    let inner = shape.inner();
    let span = inner.span();
    let function = match (shape, encoded) {
        (ValueShape::Required(_), false) => quote_spanned!(span=> required::<#inner>),
        (ValueShape::Optional(_), false) => quote_spanned!(span=> optional::<#inner>),
        (ValueShape::Repeated(_), false) => quote_spanned!(span=> repeated::<#inner>),
        (ValueShape::Required(_), true) => quote_spanned!(span=> encoded_required::<#inner>),
        (ValueShape::Optional(_), true) => quote_spanned!(span=> encoded_optional::<#inner>),
        (ValueShape::Repeated(_), true) => quote_spanned!(span=> encoded_repeated::<#inner>),
    };
    let check = quote_spanned!(span=> #p::assert_from_param::<#inner>(););
    quote! {
        {
            #check
            #p::#function(#req, #meta)
        }
    }
}

/// Reads one `#[request_part]` from `__parts`: bytes, text, a
/// `MultipartFile`, else decoded by the part's Content-Type; `Option<T>`
/// is `None` when the body has no such part, `T` a 400 naming it.
fn part(p: &TokenStream, param_ty: &Type, meta: &TokenStream) -> TokenStream {
    let (inner, optional) = match ty::value_shape(param_ty) {
        ValueShape::Optional(inner) => (inner.clone(), true),
        _ => (param_ty.clone(), false),
    };
    let read = quote_spanned!(inner.span()=> __rl_part);
    let convert = quote! {
        {
            #[allow(unused_imports)]
            use #p::{PartRaw as _, PartDecoded as _, PartUnsupported as _};
            (&&&#p::PartProbe::<#inner>::new()).#read(&__req, __f, #meta)
        }
    };
    if optional {
        quote! {
            match #p::Parts::get(&__parts, #meta) {
                ::core::option::Option::None => ::core::option::Option::None,
                ::core::option::Option::Some(__f) => match #convert {
                    ::core::result::Result::Ok(__v) => ::core::option::Option::Some(__v),
                    ::core::result::Result::Err(__e) => return #p::error_response(__e),
                },
            }
        }
    } else {
        quote! {
            match #p::Parts::required(&__parts, #meta).and_then(|__f| #convert) {
                ::core::result::Result::Ok(__v) => __v,
                ::core::result::Result::Err(__e) => return #p::error_response(__e),
            }
        }
    }
}

/// Reads the entity: raw bytes or text, else decoded by Content-Type.
fn entity(p: &TokenStream, param_ty: &Type, meta: &TokenStream) -> TokenStream {
    let read = quote_spanned!(param_ty.span()=> __rl_read);
    quote! {
        {
            #[allow(unused_imports)]
            use #p::{EntityResolvable as _, EntityRaw as _, EntityDecoded as _, EntityUnsupported as _};
            match (&&&&#p::EntityProbe::<#param_ty>::new()).#read(&__req, #meta) {
                ::core::result::Result::Ok(__v) => __v,
                ::core::result::Result::Err(__e) => return #p::error_response(__e),
            }
        }
    }
}

/// The binding at startup and the read per request of a `#[resolve]`
/// parameter: the type's `FromRequest`, else its `FromRequestWith`, else a
/// factory's resolver, chosen by the probe at compile time. A failure is
/// answered as the handler's own error would be (`local`: the resource's
/// `#[exception_handler]`s).
fn resolve(
    p: &TokenStream,
    param_ty: &Type,
    slot: &syn::Ident,
    meta: &TokenStream,
    route: &str,
    local: Option<&TokenStream>,
) -> (TokenStream, TokenStream) {
    let span = param_ty.span();
    let (bind, kind) = (quote_spanned!(span=> __rl_bind), quote_spanned!(span=> __rl_kind));
    let probe = quote!((&&&#p::ResolveProbe::<#param_ty>::new()));
    let traits = quote! {
        #[allow(unused_imports)]
        use #p::{ResolveStatic as _, ResolveWithState as _, ResolveClaimed as _};
    };
    let bind = quote! {
        let #slot = {
            #traits
            #probe.#bind(__b, #meta)?
        };
    };
    let read = quote! {
        {
            #traits
            match #probe.__rl_resolve(&__req, &#slot, &#p::ResolveContext::new(#meta, #route)).await {
                ::core::result::Result::Ok(__v) => __v,
                ::core::result::Result::Err(__e) => {
                    #[allow(unused_imports)]
                    use #p::{
                        KindIntoResponse as _, KindResult as _, KindOption as _, KindResultError as _,
                        KindSerializeError as _, KindSerialize as _, KindUnsupported as _,
                    };
                    let __ret: ::core::result::Result<(), _> = ::core::result::Result::Err(__e);
                    let __res = (&&&&&#p::w(&__ret)).#kind().respond(__ret);
                    #local
                    return __res;
                }
            }
        }
    };
    (bind, read)
}

/// Reads a `#[request_attribute]` parameter: `&T` borrowed, `T` cloned,
/// `Option<&T>` or `Option<T>` when it may be absent; a required one that
/// is absent is a 500 naming the type, logged once per route.
fn attribute(p: &TokenStream, param_ty: &Type, meta: &TokenStream, route: &str) -> TokenStream {
    let (optional, whole) = match ty::value_shape(param_ty) {
        ValueShape::Optional(inner) => (true, inner),
        _ => (false, param_ty),
    };
    let (by_ref, inner) = match ty::context_shape(whole) {
        ContextShape::Ref(inner) => (true, inner),
        _ => (false, whole),
    };
    let span = inner.span();
    let get = quote_spanned!(span=> #p::attribute::<#inner>);
    let check = quote_spanned!(span=> #p::assert_attribute::<#inner>(););
    let value = if by_ref {
        quote!(__v)
    } else {
        let clone = quote_spanned!(span=> ::core::clone::Clone::clone);
        quote!(#clone(__v))
    };
    let absent = if optional {
        quote!(::core::option::Option::None)
    } else {
        quote! {
            {
                static __RL_LOGGED: ::core::sync::atomic::AtomicBool = ::core::sync::atomic::AtomicBool::new(false);
                return #p::missing_attribute(#meta, #route, ::core::any::type_name::<#inner>(), &__RL_LOGGED);
            }
        }
    };
    let value = if optional { quote!(::core::option::Option::Some(#value)) } else { value };
    quote! {
        {
            #check
            match #get(&__req) {
                ::core::option::Option::Some(__v) => #value,
                ::core::option::Option::None => #absent,
            }
        }
    }
}

/// The route's readable name, as its descriptor gives it: `Users::list` or `hello`.
fn route_name(route: &Route, res: Option<&Resource>) -> String {
    let ident = route.ident.to_string();
    let ident = ident.strip_prefix("r#").unwrap_or(&ident);
    match res {
        Some(r) => format!("{}::{ident}", r.name),
        None => ident.to_owned(),
    }
}

/// The binding at startup and the read per request of a `#[context]` parameter.
fn context(p: &TokenStream, param_ty: &Type, slot: &syn::Ident) -> (TokenStream, TokenStream) {
    let probe = |t: &Type| {
        let span = t.span();
        let bind = quote_spanned!(span=> __rl_bind);
        let bind = quote! {
            let #slot = {
                #[allow(unused_imports)]
                use #p::{ContextRequest as _, ContextBean as _};
                (&&&#p::ContextProbe::<#t>::new()).#bind(__b)?
            };
        };
        let get = quote! {
            {
                #[allow(unused_imports)]
                use #p::{ContextRequest as _, ContextBean as _};
                (&&&#p::ContextProbe::<#t>::new()).__rl_get(&__req, &#slot)
            }
        };
        (bind, get)
    };
    match ty::context_shape(param_ty) {
        ContextShape::Ref(t) => probe(t),
        ContextShape::Owned(t) => {
            let (bind, get) = probe(t);
            let clone = quote_spanned!(t.span()=> ::core::clone::Clone::clone);
            (bind, quote!(#clone(#get)))
        }
        ContextShape::Arc(t) => {
            let bean = quote_spanned!(t.span()=> bean::<#t>);
            (quote!(let #slot: ::std::sync::Arc<#t> = __b.#bean()?;), quote!(#slot))
        }
        // Rejected by `validate`.
        ContextShape::MutRef(_) => (quote!(), quote!(::core::unreachable!())),
    }
}

fn param_meta(param: &Param, fix: &impl Fn(&Type) -> Type) -> TokenStream {
    let p = private();
    let source = param_source(param.source());
    let name = param.ident.as_ref().filter(|_| param.source() == Some(Source::Bean)).map(ToString::to_string);
    let name = name.or_else(|| param.name()).unwrap_or_else(|| {
        match param.source() {
            None => "entity",
            Some(Source::Bean) => "bean",
            Some(Source::Resolve) => "resolved",
            Some(Source::Attribute) => "attribute",
            Some(_) => "context",
        }
        .to_owned()
    });
    let default = match param.default.value() {
        Some(lit) => quote!(::core::option::Option::Some(#lit)),
        None => quote!(::core::option::Option::None),
    };
    let rust_type = ty::type_string(&fix(&param.ty));
    quote! {
        #p::ParamMeta {
            name: #name,
            source: #p::ParamSource::#source,
            default: #default,
            rust_type: #rust_type,
        }
    }
}

/// The route's full path template: the impl block's `#[path]` joined with
/// the method's.
fn descriptor_path(route: &Route, res: Option<&Resource>) -> String {
    let parts = res.and_then(|r| r.base.as_ref()).into_iter().chain(&route.path);
    template::join(parts.map(|t| t.pieces.as_slice()))
}

/// The route's template as a `'static` constant of the grammar's pieces,
/// so the router compiles it without parsing the text again. The template
/// was checked while parsing the attributes; a joined template that still
/// fails (its errors are already reported) becomes an empty one.
fn template_const(path: &str, p: &TokenStream) -> TokenStream {
    let cow = quote!(::std::borrow::Cow::Borrowed);
    let range = |r: &std::ops::Range<usize>| {
        let (start, end) = (r.start, r.end);
        quote!(#start..#end)
    };
    let pieces = grammar::Template::parse_allowing_duplicates(path).map(|t| t.pieces().to_vec()).unwrap_or_default();
    let pieces = pieces.iter().map(|piece| match piece {
        grammar::Piece::Literal(lit) => {
            let (text, at) = (lit.text.as_ref(), range(&lit.at));
            quote!(#p::Piece::Literal(#p::Literal { text: #cow(#text), at: #at }))
        }
        grammar::Piece::Var(var) => {
            let (name, at, name_at) = (var.name.as_ref(), range(&var.at), range(&var.name_at));
            let regex = match &var.regex {
                Some(re) => {
                    let re = re.as_ref();
                    quote!(::core::option::Option::Some(#cow(#re)))
                }
                None => quote!(::core::option::Option::None),
            };
            let regex_at = match &var.regex_at {
                Some(r) => {
                    let r = range(r);
                    quote!(::core::option::Option::Some(#r))
                }
                None => quote!(::core::option::Option::None),
            };
            quote!(#p::Piece::Var(#p::Var { name: #cow(#name), regex: #regex, at: #at, name_at: #name_at, regex_at: #regex_at }))
        }
    });
    quote!(#p::Template::from_static(&[#(#pieces),*]))
}

/// Media types as `'static` constants of the grammar's ranges. Each was
/// checked while parsing the attributes; one that still fails (its error is
/// already reported) is left out.
fn media_ranges(list: &[String], p: &TokenStream) -> Vec<TokenStream> {
    let cow = quote!(::std::borrow::Cow::Borrowed);
    list.iter()
        .filter_map(|text| restlight_grammar::media::parse(text).ok())
        .map(|m| {
            let (type_, subtype) = (m.type_.as_ref(), m.subtype.as_ref());
            let params = m.params.iter().map(|param| {
                let (name, value) = (param.name.as_ref(), param.value.as_ref());
                quote!(#p::MediaParam { name: #cow(#name), value: #cow(#value) })
            });
            let q = match m.q {
                Some(q) => quote!(::core::option::Option::Some(#q)),
                None => quote!(::core::option::Option::None),
            };
            quote!(#p::MediaRange { type_: #cow(#type_), subtype: #cow(#subtype), params: #cow(&[#(#params),*]), q: #q })
        })
        .collect()
}

/// The `ParamSource` variant of a source; `None` is the entity.
pub(crate) fn param_source(source: Option<Source>) -> TokenStream {
    match source {
        None => quote!(Entity),
        Some(Source::Path) => quote!(Path),
        Some(Source::Query) => quote!(Query),
        Some(Source::Header) => quote!(Header),
        Some(Source::Cookie) => quote!(Cookie),
        Some(Source::Matrix) => quote!(Matrix),
        Some(Source::Form) => quote!(Form),
        Some(Source::Context) => quote!(Context),
        Some(Source::Bean) => quote!(Bean),
        Some(Source::Resolve) => quote!(Resolved),
        Some(Source::Attribute) => quote!(Attribute),
        Some(Source::Part) => quote!(Part),
    }
}

/// The fields a route descriptor and a sub-resource route share, each a
/// constant expression.
fn common_fields(route: &Route, p: &TokenStream, doc: &TokenStream) -> TokenStream {
    let method = syn::Ident::new(route.method.value.as_str(), proc_macro2::Span::call_site());
    let method = quote!(#p::Method::#method);
    let settings = &route.settings;
    let media = |list: &Option<Resolved<Vec<String>>>| list.as_ref().map(|l| l.value.clone()).unwrap_or_default();
    let (produces, consumes) = (media(&settings.produces), media(&settings.consumes));
    let (produces, consumes) = (media_ranges(&produces, p), media_ranges(&consumes, p));
    let scheduler = match settings.scheduled.as_ref().map(|s| &s.value) {
        None => quote!(Default),
        Some(Scheduler::Io) => quote!(Io),
        Some(Scheduler::Biz) => quote!(Biz),
        Some(Scheduler::Named(name)) => quote!(Named(#name)),
    };
    let max_body = match &settings.max_body {
        // A limit past the address space is no limit.
        Some(n) => {
            let n = n.value;
            quote!(::core::option::Option::Some(#p::body_limit(#n)))
        }
        None => quote!(::core::option::Option::None),
    };
    let timeout = match &settings.timeout {
        Some(ms) => {
            let ms = ms.value;
            quote!(::core::option::Option::Some(::core::time::Duration::from_millis(#ms)))
        }
        None => quote!(::core::option::Option::None),
    };
    let codec = |v: &Option<Resolved<String>>| match v {
        Some(s) => {
            let s = &s.value;
            quote!(::core::option::Option::Some(#s))
        }
        None => quote!(::core::option::Option::None),
    };
    let (response, request) = (codec(&settings.response_serializer), codec(&settings.request_serializer));
    let compress = settings.compress();
    let blocking = !route.is_async;
    let line = quote_spanned!(route.fn_span=> ::core::line!());
    let opt_out = opt_out(route, p);
    let (param_conditions, header_conditions) = (&route.conditions.params, &route.conditions.headers);
    let trailing_slash = !route.conditions.exact_slash;
    quote! {
        method: #method,
        produces: { const __M: &[#p::MediaRange<'static>] = &[#(#produces),*]; __M },
        consumes: { const __M: &[#p::MediaRange<'static>] = &[#(#consumes),*]; __M },
        param_conditions: &[#(#param_conditions),*],
        header_conditions: &[#(#header_conditions),*],
        trailing_slash: #trailing_slash,
        scheduler: #p::SchedulerName::#scheduler,
        response_serializer: #response,
        request_serializer: #request,
        compress: #compress,
        blocking: #blocking,
        max_body: #max_body,
        timeout: #timeout,
        interceptors: { const __O: #p::OptOut = #opt_out; __O },
        file: ::core::file!(),
        line: #line,
        doc: { const __D: #p::DocRef = #doc; __D },
    }
}

fn descriptor(route: &Route, res: Option<&Resource>, p: &TokenStream, doc: &TokenStream) -> TokenStream {
    let path = descriptor_path(route, res);
    let template = template_const(&path, p);
    let ident = route.ident.to_string();
    let ident = ident.strip_prefix("r#").unwrap_or(&ident);
    let (name, resource, resource_type) = match res {
        Some(r) => {
            let resource = &r.name;
            let self_ty = &r.self_ty;
            (
                format!("{resource}::{ident}"),
                quote!(::core::option::Option::Some(#resource)),
                quote!(::core::option::Option::Some(::core::any::TypeId::of::<#self_ty>)),
            )
        }
        None => (ident.to_owned(), quote!(::core::option::Option::None), quote!(::core::option::Option::None)),
    };
    let common = common_fields(route, p, doc);
    let precedence = match route.conditions.spring_wildcards {
        Some(wildcards) => {
            let catch_all = !route.conditions.exact_slash;
            quote!(#p::Precedence::Spring { wildcards: #wildcards, catch_all: #catch_all })
        }
        None => quote!(#p::Precedence::JaxRs),
    };
    quote! {
        #p::RouteDescriptor {
            #common
            precedence: #precedence,
            path: #path,
            template: #template,
            params: &__RL_PARAMS,
            name: #name,
            resource: #resource,
            resource_type: #resource_type,
            factory: __rl_factory,
        }
    }
}

/// The interceptors a route declines: its own and its impl block's opt-outs.
fn opt_out(route: &Route, p: &TokenStream) -> TokenStream {
    let all = route.settings.no_interceptors.is_some();
    let types = route
        .settings
        .skip_interceptors
        .iter()
        .map(|path| quote_spanned!(path.span()=> ::std::any::TypeId::of::<#path> as fn() -> ::std::any::TypeId));
    quote! {
        #p::OptOut { all: #all, types: &[#(#types),*] }
    }
}

/// Maps the error of a failed route with the `#[exception_handler]`s of
/// its impl block: each level of the error's source chain is tried against
/// every handler in declaration order.
fn local_handlers(res: &Resource, p: &TokenStream, this_ref: &TokenStream) -> TokenStream {
    if res.handlers.is_empty() {
        return quote!();
    }
    let self_ty = &res.self_ty;
    let tries = res.handlers.iter().flat_map(|h| {
        let ident = &h.ident;
        let receiver = matches!(h.receiver, Receiver::Ref).then(|| quote!(#this_ref,));
        let cfgs = &h.cfgs;
        // Spring's `#[exception_handler(A, B)]`: each listed type, passed
        // to the parameter (coerced, e.g. to `&dyn Error`) if there is one.
        let (types, arg): (Vec<Type>, _) = if h.types.is_empty() {
            (h.params.first().and_then(|(t, _)| t.clone()).into_iter().collect(), Some(quote!(__x)))
        } else {
            (h.types.clone(), (!h.params.is_empty()).then(|| quote!(__x)))
        };
        types.into_iter().map(move |error_ty| {
            let error_ty = ty::replace_self(&error_ty, self_ty);
            let downcast = quote_spanned!(error_ty.span()=> downcast_ref::<#error_ty>);
            let bind = if arg.is_some() { quote!(__x) } else { quote!(_) };
            quote! {
                #(#cfgs)*
                if let ::core::option::Option::Some(#bind) = __e.#downcast() {
                    return ::core::option::Option::Some(#p::IntoResponse::into_response(<#self_ty>::#ident(#receiver #arg)));
                }
            }
        })
    });
    quote! {
        let __res = #p::map_local(__res, |__e: &(dyn ::std::error::Error + 'static)| {
            #(#tries)*
            ::core::option::Option::None
        });
    }
}
