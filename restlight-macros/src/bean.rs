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
use quote::{quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Data, DeriveInput, Fields, LitStr};

use crate::attr;
use crate::ctxt::{with_help, Ctxt, Spans};
use crate::model::Source;
use crate::ty::{self, ValueShape};

/// The sources a field may name (`#[context]` and `#[bean_param]` cannot).
const FIELD_SOURCES: [Source; 6] =
    [Source::Path, Source::Query, Source::Header, Source::Cookie, Source::Matrix, Source::Form];

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
    let mut sources: Vec<(Source, &syn::Attribute)> = Vec::new();
    let mut names: Vec<LitStr> = Vec::new();
    let mut defaults: Vec<LitStr> = Vec::new();
    for a in &f.attrs {
        let Some(name) = a.path().get_ident().map(ToString::to_string) else { continue };
        if let Some(source) = FIELD_SOURCES.into_iter().find(|s| s.attr_name() == name) {
            sources.push((source, a));
            if let Some(lit) = cx.ok(attr::optional_lit(a, "the parameter's name")).flatten() {
                if lit.value().is_empty() {
                    cx.error(
                        lit.span(),
                        with_help(
                            "a parameter name cannot be empty",
                            format!("write `#[{name}]` to use the field's name"),
                        ),
                    );
                }
                names.push(lit);
            }
        } else if name == "default_value" {
            defaults.extend(cx.ok(attr::required_lit(a, "the value used when absent", "#[default_value(\"20\")]")));
        } else if name == "context" || name == "bean_param" {
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
    }
    let list = || FIELD_SOURCES.iter().map(|s| format!("`#[{}]`", s.attr_name())).collect::<Vec<_>>().join(", ");
    let (source, first) = match sources.as_slice() {
        [] => {
            cx.error(
                Spans::of(f),
                with_help(
                    format!("the field `{ident}` does not say where it comes from"),
                    format!("put one of {} on it", list()),
                ),
            );
            return None;
        }
        [one] => *one,
        [_, (_, second), ..] => {
            cx.error(
                Spans::of(*second),
                with_help("a field has one source", "keep one source attribute: the others would never be read"),
            );
            return None;
        }
    };
    if let Some(extra) = defaults.get(1) {
        cx.error(extra.span(), with_help("`#[default_value]` is given twice", "keep one default value"));
    }
    let default = defaults.into_iter().next();
    if let (Source::Path, Some(d)) = (source, &default) {
        cx.error(
            d.span(),
            with_help(
                "a path variable always has a value: `#[default_value]` cannot apply to a `#[path_param]`",
                "remove it, or read the value with `#[query_param]`",
            ),
        );
    }
    let field_name = ident.to_string();
    let field_name = field_name.strip_prefix("r#").unwrap_or(&field_name).to_owned();
    let name = match names.into_iter().next() {
        Some(lit) => lit.value(),
        None if source == Source::Header => field_name.replace('_', "-"),
        None => field_name,
    };
    if source == Source::Header && !name.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)) {
        cx.error(
            Spans::of(first),
            with_help(
                format!("`{name}` is not a valid header name"),
                "a header name is letters, digits and `!#$%&'*+-.^_`|~`, e.g. `X-Tenant`",
            ),
        );
    }
    Some(Field { ident, ty: f.ty.clone(), source, name, default })
}

fn expand(name: &syn::Ident, fields: &[Field]) -> TokenStream {
    let p = quote!(::restlight::__private);
    let metas = fields.iter().map(|f| {
        let source = match f.source {
            Source::Path => quote!(Path),
            Source::Query => quote!(Query),
            Source::Header => quote!(Header),
            Source::Cookie => quote!(Cookie),
            Source::Matrix => quote!(Matrix),
            _ => quote!(Form),
        };
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
        let shape = ty::value_shape(&f.ty);
        let inner = shape.inner();
        let span = inner.span();
        let function = match shape {
            ValueShape::Required(_) => quote_spanned!(span=> required::<#inner>),
            ValueShape::Optional(_) => quote_spanned!(span=> optional::<#inner>),
            ValueShape::Repeated(_) => quote_spanned!(span=> repeated::<#inner>),
        };
        let check = quote_spanned!(span=> #p::assert_from_param::<#inner>(););
        let index = Literal::usize_unsuffixed(i);
        quote! {
            #ident: {
                #check
                #p::#function(__req, &<Self as #p::BeanParam>::PARAMS[#index])?
            }
        }
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
