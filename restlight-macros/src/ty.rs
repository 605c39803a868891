//! Reading parameter types by their syntax: `Option<T>`, `Vec<T>`, `&T`,
//! `Arc<T>`. Type aliases are not seen through: `type Ids = Vec<u64>` is
//! read as a single value of type `Ids`.

use quote::ToTokens;
use syn::visit_mut::VisitMut;
use syn::{GenericArgument, PathArguments, Type, TypePath};

use crate::ctxt::Spans;

/// How a path, query, header, cookie, matrix or form parameter is read.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ValueShape<'a> {
    /// `T`: absent without default is 400.
    Required(&'a Type),
    /// `Option<T>`.
    Optional(&'a Type),
    /// `Vec<T>`: every value.
    Repeated(&'a Type),
}

impl<'a> ValueShape<'a> {
    /// The type each value converts to.
    pub(crate) fn inner(self) -> &'a Type {
        match self {
            Self::Required(t) | Self::Optional(t) | Self::Repeated(t) => t,
        }
    }
}

/// The shape of a value parameter's type.
pub(crate) fn value_shape(ty: &Type) -> ValueShape<'_> {
    if let Some(inner) = wrapped(ty, "Option", &["option"]) {
        ValueShape::Optional(inner)
    } else if let Some(inner) = wrapped(ty, "Vec", &["vec"]) {
        ValueShape::Repeated(inner)
    } else {
        ValueShape::Required(ty)
    }
}

/// How a `#[context]` parameter is handed over.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ContextShape<'a> {
    /// `&T`: borrowed from the request or the bean.
    Ref(&'a Type),
    /// `Arc<T>`: the bean itself.
    Arc(&'a Type),
    /// `T`: a clone.
    Owned(&'a Type),
    /// `&mut T`: not possible, the request and beans are shared.
    MutRef(Spans),
}

/// The shape of a context parameter's type.
pub(crate) fn context_shape(ty: &Type) -> ContextShape<'_> {
    match strip(ty) {
        Type::Reference(r) if r.mutability.is_some() => ContextShape::MutRef(Spans::of(r)),
        Type::Reference(r) => ContextShape::Ref(&r.elem),
        other => match wrapped(other, "Arc", &["sync"]) {
            Some(inner) => ContextShape::Arc(inner),
            None => ContextShape::Owned(other),
        },
    }
}

/// Without parentheses and invisible groups.
fn strip(ty: &Type) -> &Type {
    match ty {
        Type::Paren(p) => strip(&p.elem),
        Type::Group(g) => strip(&g.elem),
        other => other,
    }
}

/// `T` of `Wrapper<T>`, also written `std::module::Wrapper<T>`,
/// `core::..`, `alloc::..`, with or without a leading `::`.
fn wrapped<'a>(ty: &'a Type, wrapper: &str, module: &[&str]) -> Option<&'a Type> {
    let Type::Path(TypePath { qself: None, path }) = strip(ty) else {
        return None;
    };
    let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let last = path.segments.last()?;
    let prefix_ok = match names.len() {
        1 => path.leading_colon.is_none(),
        3 => ["std", "core", "alloc"].contains(&names[0].as_str()) && module.contains(&names[1].as_str()),
        _ => false,
    };
    if !prefix_ok || last.ident != wrapper || path.segments.iter().rev().skip(1).any(|s| !s.arguments.is_none()) {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let mut types = args.args.iter().filter_map(|a| match a {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    });
    let first = types.next()?;
    if types.next().is_some() || args.args.len() != 1 {
        return None;
    }
    Some(first)
}

/// `T` of `Option<T>`.
pub(crate) fn option_of(ty: &Type) -> Option<&Type> {
    wrapped(ty, "Option", &["option"])
}

/// `T` of `Box<T>`.
pub(crate) fn box_of(ty: &Type) -> Option<&Type> {
    wrapped(ty, "Box", &["boxed"])
}

/// `T` of `Result<T, E>` (also `std::result::Result`).
pub(crate) fn result_ok(ty: &Type) -> Option<&Type> {
    let Type::Path(TypePath { qself: None, path }) = strip(ty) else {
        return None;
    };
    let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let prefix_ok = match names.len() {
        1 => path.leading_colon.is_none(),
        3 => ["std", "core"].contains(&names[0].as_str()) && names[1] == "result",
        _ => false,
    };
    let last = path.segments.last()?;
    if !prefix_ok || last.ident != "Result" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.iter().collect::<Vec<_>>().as_slice() {
        [GenericArgument::Type(t), GenericArgument::Type(_)] => Some(t),
        _ => None,
    }
}

/// The type as a user would write it: `Option<String>`, `&'static str`.
pub(crate) fn type_string(ty: &Type) -> String {
    let mut s = ty.to_token_stream().to_string();
    for (from, to) in [
        (" :: ", "::"),
        (":: ", "::"),
        (" <", "<"),
        ("< ", "<"),
        (" >", ">"),
        (" ,", ","),
        ("& ", "&"),
        ("( ", "("),
        (" )", ")"),
        ("[ ", "["),
        (" ]", "]"),
        (" ;", ";"),
    ] {
        s = s.replace(from, to);
    }
    s
}

/// `ty` with `Self` replaced by the impl's self type, for code generated
/// outside the impl block.
pub(crate) fn replace_self(ty: &Type, self_ty: &Type) -> Type {
    struct Replace<'a>(&'a Type);
    impl VisitMut for Replace<'_> {
        fn visit_type_mut(&mut self, ty: &mut Type) {
            if let Type::Path(TypePath { qself: None, path }) = ty {
                if path.is_ident("Self") {
                    *ty = self.0.clone();
                    return;
                }
            }
            syn::visit_mut::visit_type_mut(self, ty);
        }
    }
    let mut out = ty.clone();
    Replace(self_ty).visit_type_mut(&mut out);
    out
}

/// The first `impl Trait` inside `ty`: a generic parameter in disguise.
pub(crate) fn impl_trait(ty: &Type) -> Option<Spans> {
    struct Find(Option<Spans>);
    impl VisitMut for Find {
        fn visit_type_impl_trait_mut(&mut self, t: &mut syn::TypeImplTrait) {
            self.0.get_or_insert(Spans::of(t));
        }
    }
    let mut find = Find(None);
    find.visit_type_mut(&mut ty.clone());
    find.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(s: &str) -> Type {
        syn::parse_str(s).unwrap()
    }

    fn inner(shape: ValueShape<'_>) -> String {
        type_string(shape.inner())
    }

    #[test]
    fn value_shapes() {
        assert!(matches!(value_shape(&ty("usize")), ValueShape::Required(_)));
        assert!(matches!(value_shape(&ty("Option<String>")), ValueShape::Optional(_)));
        assert!(matches!(value_shape(&ty("std::option::Option<u8>")), ValueShape::Optional(_)));
        assert!(matches!(value_shape(&ty("::core::option::Option<u8>")), ValueShape::Optional(_)));
        assert!(matches!(value_shape(&ty("Vec<u64>")), ValueShape::Repeated(_)));
        assert!(matches!(value_shape(&ty("alloc::vec::Vec<u64>")), ValueShape::Repeated(_)));
        assert!(matches!(value_shape(&ty("my::Option<u8>")), ValueShape::Required(_)));
        assert!(matches!(value_shape(&ty("Vec<u8, A>")), ValueShape::Required(_)));
        assert_eq!(inner(value_shape(&ty("Option<Vec<u8>>"))), "Vec<u8>");
    }

    #[test]
    fn context_shapes() {
        assert!(matches!(context_shape(&ty("&RequestContext")), ContextShape::Ref(_)));
        assert!(matches!(context_shape(&ty("&'a HeaderMap")), ContextShape::Ref(_)));
        assert!(matches!(context_shape(&ty("Arc<Db>")), ContextShape::Arc(_)));
        assert!(matches!(context_shape(&ty("std::sync::Arc<Db>")), ContextShape::Arc(_)));
        assert!(matches!(context_shape(&ty("Method")), ContextShape::Owned(_)));
        assert!(matches!(context_shape(&ty("&mut Db")), ContextShape::MutRef(_)));
    }

    #[test]
    fn type_strings() {
        assert_eq!(type_string(&ty("Option < String >")), "Option<String>");
        assert_eq!(type_string(&ty("&'static str")), "&'static str");
        assert_eq!(type_string(&ty("std::collections::HashMap<String, u8>")), "std::collections::HashMap<String, u8>");
        assert_eq!(type_string(&ty("[u8; 4]")), "[u8; 4]");
    }

    #[test]
    fn self_replaced() {
        let out = replace_self(&ty("Option<&Self>"), &ty("UserResource"));
        assert_eq!(type_string(&out), "Option<&UserResource>");
    }
}
