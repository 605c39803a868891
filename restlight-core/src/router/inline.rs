//! [`InlineVec`]: a short list of `Copy` items in a fixed array, spilling
//! into a vector.

/// Up to `N` items in a fixed array, so that pushing one is a store and an
/// increment and the list allocates nothing; past `N`, all of them in a
/// vector. Cheaper than a `SmallVec` for the lists the router builds per
/// lookup (the offsets of a path's `/`, a match's captures), which asks on
/// every push and truncation where its items are.
#[derive(Debug)]
pub(crate) struct InlineVec<T, const N: usize> {
    len: usize,
    inline: [T; N],
    /// Empty until the array is full; then every item, the array's too.
    /// The array's items never change once it is full, so it holds the
    /// first `N` again when the list is cut back to them.
    spilled: Vec<T>,
}

impl<T: Copy + Default, const N: usize> InlineVec<T, N> {
    /// An empty list.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self { len: 0, inline: [T::default(); N], spilled: Vec::new() }
    }

    /// How many items there are.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The items, in order.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[T] {
        match self.inline.get(..self.len) {
            Some(items) => items,
            None => &self.spilled,
        }
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, item: T) {
        match self.inline.get_mut(self.len) {
            Some(slot) => *slot = item,
            None => self.spill(item),
        }
        self.len += 1;
    }

    /// Records `item` past the array's end.
    #[cold]
    #[inline(never)]
    fn spill(&mut self, item: T) {
        if self.spilled.is_empty() {
            self.spilled.extend_from_slice(&self.inline);
        }
        self.spilled.push(item);
    }

    /// Keeps the first `len` items.
    #[inline]
    pub(crate) fn truncate(&mut self, len: usize) {
        if len < self.len {
            self.len = len;
            if len <= N {
                self.spilled.clear();
            } else {
                self.spilled.truncate(len);
            }
        }
    }

    /// Forgets the last item.
    #[inline]
    pub(crate) fn pop(&mut self) {
        self.truncate(self.len.saturating_sub(1));
    }

    #[inline]
    pub(crate) fn clear(&mut self) {
        self.truncate(0);
    }

    /// Becomes a copy of `other`: the array copied whole, a fixed size,
    /// rather than one item at a time.
    #[inline]
    pub(crate) fn copy_from(&mut self, other: &Self) {
        self.len = other.len;
        self.inline = other.inline;
        if other.spilled.is_empty() {
            self.spilled.clear();
        } else {
            self.spilled.clone_from(&other.spilled);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::InlineVec;

    #[test]
    fn items_past_the_array_and_back_stay_in_order() {
        let mut list: InlineVec<u32, 8> = InlineVec::new();
        let mut model: Vec<u32> = Vec::new();
        let mut next = 0u32;
        // Lengths across the array's end, in both directions.
        for (pushes, keep) in [(5, 3), (9, 10), (4, 14), (0, 8), (3, 6), (12, 16), (0, 0), (8, 7), (2, 9)] {
            for _ in 0..pushes {
                list.push(next);
                model.push(next);
                next += 1;
            }
            assert_eq!(list.as_slice(), model);
            list.truncate(keep);
            model.truncate(keep);
            assert_eq!(list.len(), model.len());
            assert_eq!(list.as_slice(), model);
            let mut copy = InlineVec::new();
            copy.push(99);
            copy.copy_from(&list);
            assert_eq!(copy.as_slice(), model, "a copy holds the same items");
            list.pop();
            model.pop();
            assert_eq!(list.as_slice(), model, "pop forgets the last");
        }
        list.clear();
        assert!(list.as_slice().is_empty());
    }
}
