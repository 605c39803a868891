//! The helpers of an impl block, a method or a route function: each one is
//! read, checked against the place it stands, and removed from the item.

use syn::{Attribute, Ident, LitStr};

use crate::ctxt::{with_help, Ctxt, Spans};
use crate::helpers::{self, Helper, Place};
use crate::model::{HttpMethod, Spanned};
use crate::settings::Declared;
use crate::slot::Slot;
use crate::template::Template;
use crate::{args, quantity, suggest};

/// The helpers read from the attributes of one item.
pub(super) struct ItemAttrs {
    /// The function's name, for messages; `None` for the impl block.
    name: Option<Ident>,
    pub(super) method: Slot<HttpMethod>,
    pub(super) path: Slot<Template>,
    /// Spans of `#[path]` attributes (also those that did not parse).
    pub(super) path_attrs: Vec<Spans>,
    /// A path that did not parse.
    pub(super) bad_path: bool,
    pub(super) settings: Declared,
    pub(super) exception_handler: Slot<()>,
    /// `#[encoded]`: every path, query, matrix and form parameter.
    pub(super) encoded: Slot<()>,
}

impl ItemAttrs {
    /// Nothing read yet from the function `name` (`None`: the impl block).
    pub(super) fn new(name: Option<Ident>) -> Self {
        Self {
            name,
            method: Slot::default(),
            path: Slot::default(),
            path_attrs: Vec::new(),
            bad_path: false,
            settings: Declared::default(),
            exception_handler: Slot::default(),
            encoded: Slot::default(),
        }
    }

    fn subject(&self) -> String {
        self.name.as_ref().map_or_else(|| "the route".to_owned(), |i| format!("`{i}`"))
    }

    /// The method attribute, from the route macro itself or a helper.
    pub(super) fn method(&mut self, cx: &mut Ctxt, method: Spanned<HttpMethod>) {
        let subject = self.subject();
        self.method.set_or_else(cx, method, |first| {
            (
                format!("a second method attribute on {subject}: it is already `#[{}]`", first.value.attr_name()),
                Helper::Method(first.value).once_help().to_owned(),
            )
        });
    }

    /// The route's path, from the route macro or a helper.
    pub(super) fn path(&mut self, cx: &mut Ctxt, lit: &LitStr) {
        let Some(template) = Template::parse(cx, lit) else {
            self.bad_path = true;
            return;
        };
        let subject = self.subject();
        self.path.set_or_else(cx, Spanned::new(template, lit.span()), |_| {
            (format!("a second path for {subject}"), Helper::Path.once_help().to_owned())
        });
    }

    /// Reads and removes the helpers among `attrs`, which stand at `place`.
    pub(super) fn read(&mut self, cx: &mut Ctxt, attrs: &mut Vec<Attribute>, place: Place) {
        attrs.retain(|a| {
            match helpers::helper(a) {
                Some(helper) => self.helper(cx, a, helper, place),
                None => match suggest::near_miss_on_item(a, place) {
                    Some(e) => cx.push(e),
                    None => return true,
                },
            }
            false
        });
        self.conflicts(cx);
    }

    fn helper(&mut self, cx: &mut Ctxt, a: &Attribute, helper: Helper, place: Place) {
        if !helper.may_stand(place) {
            return misplaced(cx, a, helper, place);
        }
        let s = &mut self.settings;
        match helper {
            Helper::Method(m) => {
                self.method(cx, Spanned::new(m, Spans::of(a)));
                if let Some(lit) = cx.ok(args::optional_lit(a, "the route's path")).flatten() {
                    self.path(cx, &lit);
                }
            }
            Helper::Path => {
                self.path_attrs.push(Spans::of(a));
                match cx.ok(args::required_lit(a, "the route's path", "#[path(\"/{id}\")]")) {
                    Some(lit) => self.path(cx, &lit),
                    None => self.bad_path = true,
                }
            }
            Helper::Produces => set(cx, &mut s.produces, helper, a, args::media_list(a)),
            Helper::Consumes => set(cx, &mut s.consumes, helper, a, args::media_list(a)),
            Helper::Scheduled => set(cx, &mut s.scheduled, helper, a, args::scheduler(a)),
            Helper::MaxBody => set(cx, &mut s.max_body, helper, a, quantity::max_body(a)),
            Helper::Timeout => set(cx, &mut s.timeout, helper, a, quantity::timeout(a)),
            Helper::NoInterceptors => {
                let flag = args::no_args(a).map(|()| Spanned::new((), Spans::of(a)));
                set(cx, &mut s.no_interceptors, helper, a, flag);
            }
            Helper::SkipInterceptor => {
                for path in cx.ok(args::type_list(a)).into_iter().flatten() {
                    let span = Spans::of(&path);
                    s.skip_interceptor.push(Spanned::new(path, span));
                }
            }
            Helper::Tag => {
                for tag in cx.ok(args::tag_list(a)).into_iter().flatten() {
                    s.tags.push(tag);
                }
            }
            Helper::ExceptionHandler => {
                let flag = args::no_args(a).map(|()| Spanned::new((), Spans::of(a)));
                set(cx, &mut self.exception_handler, helper, a, flag);
            }
            Helper::Serializer => set(cx, &mut s.serializer, helper, a, args::codec_name(a)),
            Helper::RequestSerializer => set(cx, &mut s.request_serializer, helper, a, args::codec_name(a)),
            Helper::ResponseSerializer => set(cx, &mut s.response_serializer, helper, a, args::codec_name(a)),
            Helper::Compress => set(cx, &mut s.compress, helper, a, args::compress(a)),
            Helper::Encoded => {
                let flag = args::no_args(a).map(|()| Spanned::new((), Spans::of(a)));
                set(cx, &mut self.encoded, helper, a, flag);
            }
            // Parameter helpers never stand on an item.
            Helper::Source(_) | Helper::DefaultValue | Helper::Valid => misplaced(cx, a, helper, place),
        }
    }

    /// `#[serializer]` sets both sides: not next to a one-sided codec.
    fn conflicts(&self, cx: &mut Ctxt) {
        let s = &self.settings;
        let Some(both) = s.serializer.get() else { return };
        for (slot, name) in
            [(&s.request_serializer, "request_serializer"), (&s.response_serializer, "response_serializer")]
        {
            if let Some(one) = slot.get() {
                cx.error(
                    one.span,
                    with_help(
                        format!("`#[{name}]` next to `#[serializer(\"{}\")]`, which sets both sides", both.value),
                        "keep `#[serializer]` for both sides, or `#[request_serializer]` and `#[response_serializer]` for each",
                    ),
                );
            }
        }
    }
}

/// Stores a parsed value in its slot, or records why it did not parse.
fn set<T>(cx: &mut Ctxt, slot: &mut Slot<T>, helper: Helper, a: &Attribute, value: syn::Result<Spanned<T>>) {
    if let Some(value) = cx.ok(value) {
        slot.set(cx, helper, Spans::of(a), value);
    }
}

/// The error for a helper of ours standing where it does not belong.
fn misplaced(cx: &mut Ctxt, a: &Attribute, helper: Helper, place: Place) {
    let name = helper.name();
    let (message, help) = match helper {
        Helper::Method(_) => (
            format!("`#[{name}]` belongs on a method inside the impl block"),
            "the impl block takes `#[produces]`, `#[consumes]` and `#[scheduled]`; put the method attribute on each route method"
                .to_owned(),
        ),
        Helper::Path => (
            "the impl block already has `#[restlight::path]`".to_owned(),
            "give the impl block one base path; sub-paths go on the methods".to_owned(),
        ),
        Helper::ExceptionHandler => (
            format!("`#[exception_handler]` goes on a method of a `#[restlight::path]` impl block, not on {}", place.describe()),
            "write it on a method `fn on_error(&self, e: &MyError) -> impl IntoResponse` inside the resource's impl block, or register an `ExceptionMapper` on the application".to_owned(),
        ),
        _ => (
            format!("`#[{name}]` belongs on a parameter, not on {}", place.describe()),
            format!("write it before the parameter: `#[{name}] name: Type`"),
        ),
    };
    cx.error(Spans::of(a), with_help(message, help));
}
