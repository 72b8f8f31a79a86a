//! Where html5ever's tokenizer is in the source, read off its input queue.
//!
//! The tokenizer gives no offsets, but it takes its input from a [`BufferQueue`] that irilint
//! fills one chunk of the source at a time. When a tag, comment or doctype token is emitted its
//! closing `>` has just been taken from the queue, so what is left of the chunk in the queue
//! says where the token ends. That is only certain while the queue's front is the chunk's own
//! remainder: the tokenizer sometimes puts characters back (a character reference it could not
//! match, a lookahead cut by the chunk's end) as a buffer of their own, and a remainder of at
//! most 8 bytes is copied inline by `tendril`. The front is recognised by its address, which
//! only the remainder of the chunk's copy can have; otherwise the position is unknown and the
//! caller falls back on finding the token in the source.

use std::cell::Cell;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::BufferQueue;

/// Longer buffers than this are on the heap: their address is stable and tells them apart.
const MAX_INLINE_LEN: usize = 8;

/// The chunk last pushed onto the queue.
#[derive(Clone, Copy, Default)]
struct Chunk {
    /// Offset just after the chunk in the source.
    end: usize,
    /// Address just after the chunk's copy in the queue (0 when it is stored inline).
    copy_end: usize,
}

/// The input queue, and which part of the source it holds.
#[derive(Default)]
pub struct Feed {
    queue: BufferQueue,
    chunk: Cell<Chunk>,
}

impl Feed {
    /// Pushes `text[start..end]` (the tokenizer has taken everything before `start`).
    pub fn push(&self, text: &str, start: usize, end: usize) {
        self.push_copy(&text[start..end], end);
    }

    /// Pushes `copy`, which stands for the source bytes just before `end` (as many as it has:
    /// the source with some of its bytes blanked out).
    pub fn push_copy(&self, copy: &str, end: usize) {
        let copy = StrTendril::from_slice(copy);
        let copy_end = if copy.len() > MAX_INLINE_LEN {
            copy.as_ptr() as usize + copy.len()
        } else {
            0
        };
        self.chunk.set(Chunk { end, copy_end });
        self.queue.push_back(copy);
    }

    /// The queue to feed the tokenizer from.
    pub fn queue(&self) -> &BufferQueue {
        &self.queue
    }

    /// The offset in the source just after the last character the tokenizer took, when known.
    /// Not to be called while the tokenizer holds the queue's front (it never emits a tag,
    /// comment or doctype token then).
    pub fn taken_to(&self) -> Option<usize> {
        let chunk = self.chunk.get();
        let Some(front) = self.queue.peek_front_chunk_mut() else {
            return Some(chunk.end);
        };
        let (at, len) = (front.as_ptr() as usize, front.len());
        (len > MAX_INLINE_LEN && chunk.copy_end != 0 && at + len == chunk.copy_end)
            .then(|| chunk.end - len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_position_is_read_off_the_chunk_and_never_off_a_put_back_buffer() {
        let text = "0123456789<a href=x>abcdefghijklmnopqrstuvwxyz";
        let feed = Feed::default();
        feed.push(text, 10, text.len());
        assert_eq!(feed.taken_to(), Some(10));
        for _ in 0.."<a href=x>".len() {
            feed.queue().next();
        }
        assert_eq!(feed.taken_to(), Some(20));
        // What a character reference gives back is a buffer of its own, copied elsewhere.
        feed.queue()
            .push_front(StrTendril::from_slice("notin;notin;"));
        assert_eq!(feed.taken_to(), None);
        feed.queue().pop_front();
        assert_eq!(feed.taken_to(), Some(20));
        // Eight bytes or fewer are stored inline, where the address tells nothing.
        while feed
            .queue()
            .peek_front_chunk_mut()
            .is_some_and(|f| f.len() > 8)
        {
            feed.queue().next();
        }
        assert_eq!(feed.taken_to(), None);
        while feed.queue().next().is_some() {}
        assert_eq!(feed.taken_to(), Some(text.len()));
    }
}
