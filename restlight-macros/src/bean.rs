//! `#[derive(BeanParam)]`: a struct whose fields are read from several
//! sources of the request, for `#[bean_param]` handler parameters.
//!
//! Each named field carries one source attribute, as a handler parameter
//! would (`#[query_param]`, `#[header_param("X-Tenant")]`, ...), and
//! optionally `#[default_value("..")]`. The expansion is an impl of
//! `BeanParam` whose `from_request` reads each field with the same
//! functions as a handler parameter, so conversion errors name the field's
//! parameter and value the same way.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::{Data, DeriveInput, Fields, LitStr};

use crate::args;
use crate::ctxt::{with_help, Ctxt, Spans};
use crate::expand::{param_source, read_value};
use crate::helpers::{self, list, Helper, Place, TABLE};
use crate::model::{default_name, Source, Spanned};
use crate::parse::explicit_name;
use crate::slot::Slot;
use crate::ty;
use crate::validate::{bad_header_name, PATH_DEFAULT};

struct Field {
    ident: syn::Ident,
    ty: syn::Type,
    source: Source,
    name: String,
    default: Option<LitStr>,
}

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let mut cx = Ctxt::new();
    let fields = fields(&mut cx, &input);
    if let Err(e) = cx.check() {
        return e.to_compile_error();
    }
    expand(&input.ident, &fields)
}

fn fields(cx: &mut Ctxt, input: &DeriveInput) -> Vec<Field> {
    if !input.generics.params.is_empty() {
        cx.error(
            Spans::of(&input.generics),
            with_help(
                "a `BeanParam` cannot be generic",
                "the framework reads the fields into concrete types: name the types of the fields",
            ),
        );
    }
    let named = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => Some(named),
            other => {
                cx.error(
                    Spans::of(other),
                    with_help(
                        "`BeanParam` needs a struct with named fields",
                        "name the fields: each one is looked up by its name, `struct Paging { limit: usize }`",
                    ),
                );
                None
            }
        },
        _ => {
            cx.error(
                input.ident.span(),
                with_help("`BeanParam` can only be derived for a struct", "gather the parameters in a struct"),
            );
            None
        }
    };
    let Some(named) = named else { return Vec::new() };
    named.named.iter().filter_map(|f| field(cx, f)).collect()
}

fn field(cx: &mut Ctxt, f: &syn::Field) -> Option<Field> {
    let ident = f.ident.clone()?;
    let mut source: Slot<Source> = Slot::default();
    let mut names: Vec<LitStr> = Vec::new();
    let mut default: Slot<LitStr> = Slot::default();
    let mut failed = false;
    for a in &f.attrs {
        // The derive's helpers are written bare.
        let Some(helper) = a.path().get_ident().and_then(|_| helpers::helper(a)) else { continue };
        match helper {
            Helper::Source(s) if helper.may_stand(Place::BeanField) => {
                names.extend(explicit_name(cx, a, s, "the field's name"));
                source.set_or_else(cx, Spanned::new(s, Spans::of(a)), |_| {
                    failed = true;
                    (
                        "a field has one source".to_owned(),
                        "keep one source attribute: the others would never be read".to_owned(),
                    )
                });
            }
            Helper::Source(_) => {
                let name = helper.name();
                cx.error(
                    Spans::of(a),
                    with_help(
                        format!("`#[{name}]` cannot be used on a field of a `BeanParam`"),
                        "a bean's fields are read from the request: use `#[query_param]`, `#[header_param]`, ..., \
                         and take the context or the other bean as parameters of the handler",
                    ),
                );
                return None;
            }
            Helper::DefaultValue => {
                let lit = args::required_lit(a, "the value used when absent", "#[default_value(\"20\")]");
                if let Some(lit) = cx.ok(lit) {
                    let span = lit.span();
                    default.set(cx, helper, Spans::of(a), Spanned::new(lit, span));
                }
            }
            _ => {}
        }
    }
    let Some(Spanned { value: source, span: first }) = source.into_inner() else {
        let sources: Vec<&str> = TABLE
            .iter()
            .filter(|e| matches!(e.helper, Helper::Source(_)) && e.places.contains(&Place::BeanField))
            .map(|e| e.name)
            .collect();
        cx.error(
            Spans::of(f),
            with_help(
                format!("the field `{ident}` does not say where it comes from"),
                format!("put one of {} on it", list(&sources)),
            ),
        );
        return None;
    };
    if failed {
        return None;
    }
    let default = default.into_inner().map(|d| d.value);
    if let (Source::Path, Some(d)) = (source, &default) {
        cx.error(d.span(), with_help(PATH_DEFAULT.0, PATH_DEFAULT.1));
    }
    let name = names.first().map_or_else(|| default_name(&ident, Some(source)), LitStr::value);
    if source == Source::Header {
        if let Some(e) = bad_header_name(&name) {
            cx.error(first, e);
        }
    }
    Some(Field { ident, ty: f.ty.clone(), source, name, default })
}

fn expand(name: &syn::Ident, fields: &[Field]) -> TokenStream {
    let p = quote!(::restlight::__private);
    let metas = fields.iter().map(|f| {
        let source = param_source(Some(f.source));
        let param = &f.name;
        let default = match &f.default {
            Some(lit) => quote!(::core::option::Option::Some(#lit)),
            None => quote!(::core::option::Option::None),
        };
        let rust_type = ty::type_string(&f.ty);
        quote! {
            #p::ParamMeta { name: #param, source: #p::ParamSource::#source, default: #default, rust_type: #rust_type }
        }
    });
    let reads = fields.iter().enumerate().map(|(i, f)| {
        let ident = &f.ident;
        let index = Literal::usize_unsuffixed(i);
        let read = read_value(&p, &f.ty, &quote!(__req), &quote!(&<Self as #p::BeanParam>::PARAMS[#index]));
        quote!(#ident: #read?)
    });
    quote! {
        const _: () = {
            impl #p::BeanParam for #name {
                const PARAMS: &'static [#p::ParamMeta] = &[#(#metas),*];

                fn from_request(
                    __req: &#p::RequestContext,
                ) -> ::core::result::Result<Self, #p::HttpError> {
                    ::core::result::Result::Ok(Self { #(#reads),* })
                }
            }
        };
    }
}
