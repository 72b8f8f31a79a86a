//! Where a long Markdown document can be parsed in pieces, so that the parser's memory stays
//! bounded whatever the document holds.
//!
//! pulldown-cmark builds a tree of the whole document (a node of 48 bytes per block and inline
//! item, in a vector that doubles) before the first event: about 1.5 bytes per byte of prose,
//! up to about 150 for a document of nothing but inline markup (`*a* *a* ...`, `a\na\n...`). A
//! document whose [`cost`] is over a budget is therefore parsed in chunks, each within it.
//!
//! A chunk ends where the document's parse holds nothing open, so that parsing from there is
//! parsing the whole document from there ([`next_split`]): before a line that follows a blank
//! line and starts, unindented, with a letter (ASCII or not). Such a line is no container's
//! content and no lazy continuation: every block quote, list, footnote definition, table,
//! paragraph, indented code block and HTML block of kinds 6 and 7 has ended before it. Only a
//! fenced code block and an HTML block of kinds 1 to 5 (`<pre>`, `<script>`, `<style>`,
//! `<textarea>`, `<!--`, `<?`, `<!X`, `<![CDATA[`) run on over blank lines: the chunk's parse
//! shows such a block still open at its end, and it is then cut before that block, which is
//! found to its end here ([`block_end`], with pulldown-cmark's own rules) and read as a chunk of
//! its own.
//!
//! Reference definitions are the only thing one part of a document takes from another: a
//! definition repeated in a later chunk is not reported (CommonMark keeps the first), and a
//! reference-style link is not reported anyway (its definition is). A footnote reference whose
//! definition is in another chunk is read as the text `[^1]`, which ends a bare IRI as the
//! reference does.
//!
//! A single stretch with no such line that is over the budget (one paragraph of millions of
//! emphasis markers, a list of a million items) is cut where [`next_split`] must: at a blank
//! line if there is one, else at a line end, else at a space in the line. There, and only there,
//! a link or code span across the cut is read as two texts: the price of a bounded parse, paid
//! only by documents no one writes by hand.

use std::ops::Range;

/// The budget of one chunk, in estimated bytes of memory ([`cost`]): the parser's, and the IRIs
/// the chunk holds until they are handed on.
pub(crate) const CHUNK_COST: usize = 32 << 20;

/// What one byte that can make a parser item is counted as: at most two items of 48 bytes per
/// such byte, and the tree's vector while it doubles (measured: 288 bytes per `*` of `*a* `,
/// per line of `a\n`, per cell of `a|b`).
const ITEM_COST: usize = 300;

/// What one byte that can end or hold an IRI is counted as besides: the IRI's occurrence (its
/// text, map and origin, about 500 bytes for a short one) is held until its chunk is read.
const OCCURRENCE_COST: usize = 600;

/// Each byte's cost in half bytes ([`cost`]): 3 for every byte (the tree the parser reserves,
/// 1 node of 48 bytes per 32 bytes of text), and twice [`ITEM_COST`] for a byte that can make an
/// item of pulldown-cmark's tree: line ends and tabs (a text item, a soft break, an
/// indentation), inline markup, escapes, references, block markers (which make containers when
/// nested on one line: `> > > - - 1. 1.`). Twice [`OCCURRENCE_COST`] more for one that can end or
/// hold an IRI: the `:` of a bare IRI or a definition, the `]` of a link, the `<` and `=` of
/// HTML.
const HALVES: [u16; 256] = {
    let mut table = [3u16; 256];
    let items = b"\n\r\t*_`[]<>&\\|~!-+#=.):";
    let mut i = 0;
    while i < items.len() {
        table[items[i] as usize] += 2 * ITEM_COST as u16;
        i += 1;
    }
    let iris = b":]<=";
    let mut i = 0;
    while i < iris.len() {
        table[iris[i] as usize] += 2 * OCCURRENCE_COST as u16;
        i += 1;
    }
    table
};

/// The most one byte costs, in half bytes.
const MOST_HALVES: usize = 3 + 2 * (ITEM_COST + OCCURRENCE_COST);

/// The memory `bytes` may take to parse and hold the IRIs of, estimated from above
/// ([`HALVES`]).
pub(crate) fn cost(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .map(|&b| HALVES[b as usize] as usize)
        .sum::<usize>()
        / 2
}

/// Whether `bytes` is within `budget` ([`cost`]) as the extraction decides it: at once when it
/// would be even if every byte cost the most (documents of up to 37 KB, most of them), else
/// when a bound from above ([`bound`]) is (71 of the corpus's 72 Markdown files over 37 KB),
/// else by [`cost`] (or [`total`], the same); for tests.
#[cfg(test)]
pub(crate) fn within(bytes: &[u8], budget: usize) -> bool {
    at_once(bytes, budget) || cost(bytes) <= budget
}

/// Whether `bytes` is known within `budget` without [`cost`]: it would be even if every byte
/// cost the most, or [`bound`] is.
pub(crate) fn at_once(bytes: &[u8], budget: usize) -> bool {
    bytes.len().saturating_mul(MOST_HALVES) / 2 <= budget || bound_within(bytes, budget)
}

/// The weight of a byte in [`bound`]: 1 for one that may make an item (every ASCII byte but
/// letters, digits and the space: a superset of [`HALVES`]' items), 2 more for one that can
/// end or hold an IRI (exactly [`HALVES`]' four). Comparisons joined with `&` and `|`, no
/// branch and no table: the compiler does 16 bytes at a time (about 2 instructions a byte),
/// where the table of [`cost`] reads one byte at a time (about 4).
#[inline(always)]
fn weight(b: u8) -> u8 {
    let letter = (b | 0x20).wrapping_sub(b'a') < 26;
    let digit = b.wrapping_sub(b'0') < 10;
    let marked = (b < 0x80) & !letter & !digit & (b != b' ');
    let iri = (b == b':') | (b == b']') | (b == b'<') | (b == b'=');
    u8::from(marked) + 2 * u8::from(iri)
}

/// How many bytes [`bound`] sums side by side, each in a byte-wide lane.
const LANES: usize = 16;
/// The bytes [`bound`] sums before it widens its lanes: 85 rows (at most 3 a byte, no overflow).
const BLOCK: usize = LANES * 85;

/// The sum of the weights ([`weight`]) of a block of [`BLOCK`] bytes: in 16 lanes, widened once.
#[inline(always)]
fn block_weights(block: &[u8]) -> usize {
    let mut lanes = [0u8; LANES];
    for row in block.chunks_exact(LANES) {
        for (lane, &b) in lanes.iter_mut().zip(row) {
            *lane += weight(b);
        }
    }
    lanes.iter().map(|&w| usize::from(w)).sum()
}

/// [`bound`] of `len` bytes whose weights sum to `weights`.
fn bound_of(len: usize, weights: usize) -> usize {
    // One sum of weights stands for both costs: an IRI's byte counts twice an item's.
    const _: () = assert!(OCCURRENCE_COST == 2 * ITEM_COST);
    (3 * len + 2 * ITEM_COST * weights) / 2
}

/// [`cost`] or more: every byte of weight 1 ([`weight`]) counted as an item, so `bytes` is
/// within a budget that this is within.
#[cfg(test)]
fn bound(bytes: &[u8]) -> usize {
    let mut blocks = bytes.chunks_exact(BLOCK);
    let mut weights: usize = (&mut blocks).map(block_weights).sum();
    weights += blocks
        .remainder()
        .iter()
        .map(|&b| usize::from(weight(b)))
        .sum::<usize>();
    bound_of(bytes.len(), weights)
}

/// Whether [`bound`] of `bytes` is within `budget`, the bytes read only until the rest of them
/// could not take it over even if each weighed the most (3), or until those read already have:
/// of a document of twice the size known within at once (37 KB), half is read (a third of the
/// 7.2 MB of the corpus's 71 Markdown files over 37 KB was read only to find what the bytes
/// before it had already told).
fn bound_within(bytes: &[u8], budget: usize) -> bool {
    let mut weights = 0;
    let mut unread = bytes.len();
    let mut blocks = bytes.chunks_exact(BLOCK);
    for block in &mut blocks {
        if bound_of(bytes.len(), weights + 3 * unread) <= budget {
            return true;
        }
        // (The weights only grow: once over, the rest cannot bring the bound back within.)
        if bound_of(bytes.len(), weights) > budget {
            return false;
        }
        weights += block_weights(block);
        unread -= BLOCK;
    }
    weights += blocks
        .remainder()
        .iter()
        .map(|&b| usize::from(weight(b)))
        .sum::<usize>();
    bound_of(bytes.len(), weights) <= budget
}

/// Where the chunk that starts at `from` ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Split {
    pub end: usize,
    /// Not at a line where the document's parse holds nothing open: the stretch between two such
    /// lines is over the budget alone.
    pub forced: bool,
}

/// True when the line that starts at `at` (after a line end) can start a chunk: the line before
/// it is blank and it starts, unindented, with a letter.
fn starts_chunk(bytes: &[u8], at: usize) -> bool {
    let Some(&first) = bytes.get(at) else {
        return false;
    };
    if !(first.is_ascii_alphabetic() || first >= 0x80) || at == 0 || bytes[at - 1] != b'\n' {
        return false;
    }
    // The line before: only spaces, tabs and a CR.
    let before = &bytes[..at - 1];
    before[line_start(before, before.len())..]
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// How many bytes apart [`Costs`] records the running cost.
const MARK: usize = 4096;

/// A document's running cost ([`HALVES`]) recorded every [`MARK`] bytes in one pass, so that
/// [`next_split`] jumps to the stretch where a chunk's budget runs out: summing byte by byte
/// from each chunk's start, and walking the overlap again after each cut, cost a chunked
/// document about 10 instructions per byte on each of its readings.
pub(crate) struct Costs<'a> {
    bytes: &'a [u8],
    /// The text as written ([`next_split`]); past its end a byte of `bytes` costs its own.
    costed: &'a [u8],
    /// `marks[i]`: the cost in half bytes of `bytes[..i * MARK]` ([`marks`]).
    marks: &'a [usize],
}

/// The running cost of `bytes` every [`MARK`] bytes, each byte costed as the byte of `costed`
/// at its offset, the last mark at the end ([`Costs`]; [`total`]). Reckoned once for a
/// document and shared by its readings, which cost it alike (texts as long, the same
/// `costed`).
pub(crate) fn marks(bytes: &[u8], costed: &[u8]) -> Vec<usize> {
    let costs = Costs {
        bytes,
        costed,
        marks: &[],
    };
    let mut marks = Vec::with_capacity(bytes.len() / MARK + 2);
    let mut sum = 0;
    marks.push(0);
    let mut at = 0;
    while at < bytes.len() {
        let end = (at + MARK).min(bytes.len());
        sum += costs.halves(at..end);
        marks.push(sum);
        at = end;
    }
    marks
}

/// The [`cost`] of the whole text whose [`marks`] these are.
pub(crate) fn total(marks: &[usize]) -> usize {
    marks.last().copied().unwrap_or(0) / 2
}

impl<'a> Costs<'a> {
    /// The costs of `bytes`, each byte costed as the byte of `costed` at its offset, from their
    /// [`marks`].
    pub(crate) fn new(bytes: &'a [u8], costed: &'a [u8], marks: &'a [usize]) -> Self {
        Costs {
            bytes,
            costed,
            marks,
        }
    }

    /// The cost in half bytes of `bytes[range]`.
    fn halves(&self, range: Range<usize>) -> usize {
        let sum = |b: &[u8]| {
            b.iter()
                .map(|&b| HALVES[b as usize] as usize)
                .sum::<usize>()
        };
        let split = range.end.min(self.costed.len()).max(range.start);
        let costed = if split > range.start {
            sum(&self.costed[range.start..split])
        } else {
            0
        };
        costed + sum(&self.bytes[split..range.end])
    }

    /// The cost in half bytes of `bytes[..at]`.
    fn before(&self, at: usize) -> usize {
        let m = at / MARK;
        self.marks[m] + self.halves(m * MARK..at)
    }
}

/// The end of the chunk of the document of `costs` that starts at `from`, within `budget`
/// ([`cost`] of the text as written, as long as the document: the text as it was before some
/// of it was blanked, since component tag lines are read as written) if the document allows it
/// ([`Split::forced`] when it does not). Always after `from`.
pub(crate) fn next_split(costs: &Costs<'_>, from: usize, budget: usize) -> Split {
    let bytes = costs.bytes;
    // The first byte past the budget: its stretch of MARK bytes found from the marks, then
    // the byte summed to within it.
    let limit = costs.before(from) + 2 * budget;
    let m = costs.marks.partition_point(|&c| c <= limit);
    if m == costs.marks.len() {
        return Split {
            end: bytes.len(),
            forced: false,
        };
    }
    let mut k = ((m - 1) * MARK).max(from);
    let mut spent = costs.before(k);
    loop {
        spent += costs.halves(k..k + 1);
        if spent > limit {
            break;
        }
        k += 1;
    }
    // Before it, from the last line end back: the last blank line (as read from `from`: a
    // chunk forced to start within a line is not after a blank line), and the last one after
    // which a chunk can start.
    let is_space = |c: &u8| matches!(c, b' ' | b'\t' | b'\r');
    let mut after_blank = None;
    let mut line_end = memchr::memrchr(b'\n', &bytes[from..k]).map(|i| from + i);
    let line = line_end.map(|e| e + 1);
    while let Some(e) = line_end {
        let previous = memchr::memrchr(b'\n', &bytes[from..e]).map(|i| from + i);
        let start = previous.map_or(from, |p| p + 1);
        let blank = bytes[start..e].iter().all(is_space)
            && (previous.is_some() || from == 0 || bytes[from - 1] == b'\n');
        if blank {
            after_blank.get_or_insert(e + 1);
            if starts_chunk(bytes, e + 1) {
                return Split {
                    end: e + 1,
                    forced: false,
                };
            }
        }
        line_end = previous;
    }
    // Over the budget with no clean end: cut at a blank line in the second half of what fits,
    // else at the last line end, else at the last space, else at the last character boundary.
    let half = from + (k - from) / 2;
    let end = after_blank
        .filter(|&a| a > half)
        .or(line)
        .or_else(|| {
            bytes[from..k]
                .iter()
                .rposition(is_space)
                .map(|i| from + i + 1)
        })
        .filter(|&e| e > from)
        .unwrap_or_else(|| {
            let mut e = k.max(from + 1);
            while e < bytes.len() && (bytes[e] & 0xC0) == 0x80 {
                e += 1;
            }
            e
        });
    Split { end, forced: true }
}

/// A block that may run on over blank lines: what ends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Block {
    /// A fenced code block opened with `count` times `fence`.
    Fence { fence: u8, count: usize },
    /// An HTML block of kinds 1 to 5: the line that holds this string ends it.
    Html(&'static str),
    /// Another block (an HTML block of kind 6 or 7): a blank line ends it.
    Other,
}

/// The start of the line `at` is on.
pub(crate) fn line_start(bytes: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |k| k + 1)
}

/// What opens the block whose first line starts at `start` (up to three spaces, then a fence or
/// `<`).
pub(crate) fn block_at(bytes: &[u8], start: usize) -> Block {
    let line = &bytes[start..];
    let indent = line.iter().take(3).take_while(|&&b| b == b' ').count();
    let line = &line[indent..];
    match line.first() {
        Some(&fence @ (b'`' | b'~')) => {
            let count = line.iter().take_while(|&&b| b == fence).count();
            Block::Fence { fence, count }
        }
        Some(b'<') => html_end_tag(&line[1..]).map_or(Block::Other, Block::Html),
        _ => Block::Other,
    }
}

/// pulldown-cmark's `get_html_end_tag`: what ends an HTML block of kinds 1 to 5 opened by `<`
/// and `after`.
fn html_end_tag(after: &[u8]) -> Option<&'static str> {
    for (tag, end) in [
        (&b"pre"[..], "</pre>"),
        (b"style", "</style>"),
        (b"script", "</script>"),
        (b"textarea", "</textarea>"),
    ] {
        if after.len() < tag.len() {
            break;
        }
        if !after[..tag.len()].eq_ignore_ascii_case(tag) {
            continue;
        }
        match after.get(tag.len()) {
            None => return Some(end),
            Some(&b) if b.is_ascii_whitespace() || b == b'>' => return Some(end),
            _ => {}
        }
    }
    for (start, end) in [(&b"!--"[..], "-->"), (b"?", "?>"), (b"![CDATA[", "]]>")] {
        if after.starts_with(start) {
            return Some(end);
        }
    }
    (after.len() > 1 && after[0] == b'!' && after[1].is_ascii_alphabetic()).then_some(">")
}

/// The end of the block opened on the line at `start` (a top-level block: no container prefix
/// on its lines): after the line that closes it, or the end of the text.
pub(crate) fn block_end(bytes: &[u8], start: usize) -> usize {
    let block = block_at(bytes, start);
    let mut lines = lines_from(bytes, start);
    match block {
        Block::Fence { fence, count } => {
            // The opening line, then the first closing fence.
            lines.next();
            lines
                .find(|line| closes_fence(&bytes[line.clone()], fence, count))
                .map_or(bytes.len(), |line| line.end)
        }
        Block::Html(end) => {
            let finder = memchr::memmem::Finder::new(end);
            lines
                .find(|line| finder.find(&bytes[line.clone()]).is_some())
                .map_or(bytes.len(), |line| line.end)
        }
        Block::Other => {
            lines.next();
            lines
                .find(|line| bytes[line.clone()].iter().all(|b| b.is_ascii_whitespace()))
                .map_or(bytes.len(), |line| line.start)
        }
    }
}

/// The lines from `start`, each with its line end.
fn lines_from(bytes: &[u8], start: usize) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut at = start;
    std::iter::from_fn(move || {
        if at >= bytes.len() {
            return None;
        }
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |k| at + k + 1);
        let line = at..end;
        at = end;
        Some(line)
    })
}

/// pulldown-cmark's closing fence: at most three columns of indentation (a tab to the next
/// multiple of four), at least `count` times `fence`, spaces, the line end.
fn closes_fence(line: &[u8], fence: u8, count: usize) -> bool {
    let mut column = 0;
    let mut k = 0;
    while let Some(&b) = line.get(k) {
        match b {
            b' ' => column += 1,
            b'\t' => column = (column / 4 + 1) * 4,
            _ => break,
        }
        if column >= 4 {
            return false;
        }
        k += 1;
    }
    let n = line[k..].iter().take_while(|&&b| b == fence).count();
    if n < count {
        return false;
    }
    let rest = &line[k + n..];
    let spaces = rest.iter().take_while(|&&b| b == b' ').count();
    matches!(rest.get(spaces), None | Some(b'\n' | b'\r'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`next_split`] as it was first written, summing byte by byte from `from`: the end of the chunk of `bytes` that starts at `from`, within `budget` ([`cost`] of `costed`,
    /// as long as `bytes`: the text as it was before some of it was blanked, since component tag
    /// lines are read as written) if the document allows it ([`Split::forced`] when it does not).
    /// Always after `from`.
    fn next_split_by_walking(bytes: &[u8], costed: &[u8], from: usize, budget: usize) -> Split {
        let mut spent = 0usize;
        // The last line start so far where a chunk can end, and the last line start, the last
        // line start after a blank line, and the last space, each with nothing over the budget
        // before it.
        let mut clean = None;
        let mut line = None;
        let mut after_blank = None;
        let mut space = None;
        // (A chunk forced to start within a line is not after a blank line.)
        let mut line_is_blank = from == 0 || bytes[from - 1] == b'\n';
        let mut k = from;
        while k < bytes.len() {
            let b = bytes[k];
            spent += HALVES[costed.get(k).copied().unwrap_or(b) as usize] as usize;
            if spent > 2 * budget {
                break;
            }
            match b {
                b'\n' => {
                    let next = k + 1;
                    if next < bytes.len() {
                        if line_is_blank {
                            after_blank = Some(next);
                        }
                        line = Some(next);
                        if line_is_blank && starts_chunk(bytes, next) {
                            clean = Some(next);
                        }
                    }
                    line_is_blank = true;
                }
                b' ' | b'\t' | b'\r' => {
                    space = Some(k + 1);
                }
                _ => line_is_blank = false,
            }
            k += 1;
        }
        if k >= bytes.len() {
            return Split {
                end: bytes.len(),
                forced: false,
            };
        }
        if let Some(end) = clean.filter(|&c| c > from) {
            return Split { end, forced: false };
        }
        // Over the budget with no clean end: cut at a blank line in the second half of what fits,
        // else at the last line end, else at the last space, else at the last character boundary.
        let half = from + (k - from) / 2;
        let end = after_blank
            .filter(|&a| a > half)
            .or(line)
            .or(space)
            .filter(|&e| e > from)
            .unwrap_or_else(|| {
                let mut e = k.max(from + 1);
                while e < bytes.len() && (bytes[e] & 0xC0) == 0x80 {
                    e += 1;
                }
                e
            });
        Split { end, forced: true }
    }

    fn split_of(bytes: &[u8], costed: &[u8], from: usize, budget: usize) -> Split {
        let marks = marks(bytes, costed);
        next_split(&Costs::new(bytes, costed, &marks), from, budget)
    }

    /// The jumps over recorded costs cut where summing byte by byte did, on documents of every
    /// shape the cuts know (paragraphs, a blank line with spaces, one long paragraph, one long
    /// line, no space at all, blanked text beside the text as written), from any start.
    #[test]
    fn jumps_cut_where_walking_did() {
        let mut seed = 0x2545_f491_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let pieces = [
            "Some words here.",
            "\n",
            "\n\n",
            " \t\r\n",
            "é",
            "*a* ",
            "[x](http://a.b/c)",
            "- item",
            "> quote",
            "  ",
            "word",
            "\n\nNext",
            "|a|b|",
        ];
        for round in 0..300 {
            let mut text = String::new();
            let target = 100 + (next() % 20_000) as usize;
            while text.len() < target {
                let piece = pieces[(next() % pieces.len() as u64) as usize];
                for _ in 0..1 + next() % 20 {
                    text.push_str(piece);
                }
            }
            let b = text.as_bytes();
            // Blanked: some bytes of the text as read are spaces.
            let blanked: Vec<u8> = b
                .iter()
                .map(|&c| if round % 3 == 0 && c == b'*' { b' ' } else { c })
                .collect();
            let costed = if round % 5 == 0 { &b[..b.len() / 2] } else { b };
            let budget = 1 + (next() % (cost(b) as u64 / 2 + 2)) as usize;
            let mut from = 0;
            while from < b.len() {
                let old = next_split_by_walking(&blanked, costed, from, budget);
                assert_eq!(
                    split_of(&blanked, costed, from, budget),
                    old,
                    "round {round}, from {from}"
                );
                // Chunks, and starts within a line too.
                from = if next() % 4 == 0 {
                    from + 1 + (next() % 50) as usize
                } else {
                    old.end
                };
                while from < b.len() && !text.is_char_boundary(from) {
                    from += 1;
                }
            }
        }
    }

    /// [`bound`] is never below [`cost`], and [`within`] answers as [`cost`] does, on every
    /// byte alone and on texts of every mix of them, at budgets around their cost.
    #[test]
    fn the_bound_is_from_above_and_within_answers_as_the_cost() {
        for b in 0..=255u8 {
            let one = [b];
            assert!(bound(&one) >= cost(&one), "{b}");
            let is_item = HALVES[b as usize] > 3;
            assert!(
                weight(b) >= u8::from(is_item) + 2 * u8::from(HALVES[b as usize] > 603),
                "{b}"
            );
        }
        let mut seed = 0x9e37_79b9_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let alphabets: [&[u8]; 4] = [
            b"abc XYZ 019 \xc3\xa9",
            b"The text, of prose. With some [links](http://a.b/c)\n\n",
            b"*_`[]<>&\\|~!-+#=.):\n\r\t\"'{}%$",
            &[0, 1, 0x7f, 0x80, 0xff, b'=', b' '],
        ];
        for round in 0..200 {
            let alphabet = alphabets[round % alphabets.len()];
            let len = 30_000 + (next() % 200_000) as usize;
            let text: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            let exact = cost(&text);
            assert!(bound(&text) >= exact);
            assert_eq!(total(&marks(&text, &text)), exact);
            for budget in [
                exact - 1,
                exact,
                exact + 1,
                exact / 2,
                bound(&text),
                bound(&text) - 1,
            ] {
                assert_eq!(
                    within(&text, budget),
                    exact <= budget,
                    "round {round}, {budget}"
                );
            }
            // Reading only until the rest cannot take the bound over the budget answers as the
            // whole bound does, around every budget where the answer turns.
            let whole = bound(&text);
            let most = bound_of(text.len(), 3 * text.len());
            for budget in [
                whole - 1,
                whole,
                whole + 1,
                whole + (most - whole) / 3,
                most - 1,
                most,
                exact,
                0,
            ] {
                assert_eq!(
                    bound_within(&text, budget),
                    whole <= budget,
                    "round {round}, {budget}"
                );
            }
        }
    }

    #[test]
    fn chunks_start_after_a_blank_line_at_an_unindented_letter() {
        let text = b"# T\n\npara\n\n- item\n\n  more\n\nNext\n\n\xC3\xA9t\xC3\xA9\n";
        let starts: Vec<usize> = (1..text.len())
            .filter(|&k| text[k - 1] == b'\n' && starts_chunk(text, k))
            .collect();
        let at = |s: &str| {
            text.windows(s.len())
                .position(|w| w == s.as_bytes())
                .unwrap()
        };
        assert_eq!(starts, vec![at("para"), at("Next"), at("\u{E9}t")]);
    }

    #[test]
    fn a_split_is_clean_when_it_can_be_and_forced_only_past_the_budget() {
        let para = "Some words here.\n\n";
        let text = para.repeat(100);
        let one = cost(para.as_bytes());
        let split = split_of(text.as_bytes(), text.as_bytes(), 0, 10 * one);
        assert!(!split.forced);
        assert_eq!(split.end % para.len(), 0);
        assert!(split.end >= 9 * para.len() && split.end <= 10 * para.len());
        // One paragraph of many lines: no clean end, cut at a line end.
        let lines = "a\n".repeat(1000);
        let split = split_of(lines.as_bytes(), lines.as_bytes(), 0, 100 * ITEM_COST);
        assert!(split.end > 50 && split.end < 200, "{split:?}");
        assert!(split.forced);
        assert_eq!(&lines.as_bytes()[split.end - 1..split.end], b"\n");
        // One line: cut at a space.
        let line = "*a* ".repeat(1000);
        let split = split_of(line.as_bytes(), line.as_bytes(), 0, 100 * ITEM_COST);
        assert!(split.forced && line.as_bytes()[split.end - 1] == b' ');
        // No space: at a character boundary.
        let word = "\u{E9}*".repeat(1000);
        let split = split_of(word.as_bytes(), word.as_bytes(), 1, 10 * ITEM_COST);
        assert!(word.is_char_boundary(split.end) && split.end > 1);
        // Within the budget: the whole text.
        assert_eq!(
            split_of(text.as_bytes(), text.as_bytes(), 0, cost(text.as_bytes())).end,
            text.len()
        );
    }

    #[test]
    fn blocks_end_where_pulldown_cmark_ends_them() {
        let end = |t: &str| block_end(t.as_bytes(), 0);
        assert_eq!(end("```\na\n\nb\n```\nafter"), 13);
        assert_eq!(end("````\n```\n````  \nafter"), 16);
        // A tab to column four, or a tab after the fence: no closing fence.
        assert_eq!(end("```\n \t```\n```\t\nx"), 16);
        assert_eq!(end("~~~\n```\n~~~\nafter"), 12);
        assert_eq!(end("<!--\n\nx -->\nafter"), 12);
        assert_eq!(end("<pre>\n\n</PRE>\n</pre>\nafter"), 21);
        assert_eq!(end("<!-->\nafter"), 6);
        assert_eq!(end("<div>\nx\n\nafter"), 8);
        assert_eq!(end("```\nnever closed\n"), 17);
        assert_eq!(
            block_at(b"   ~~~~ x", 0),
            Block::Fence {
                fence: b'~',
                count: 4
            }
        );
        assert_eq!(block_at(b"<script>", 0), Block::Html("</script>"));
        assert_eq!(block_at(b"<scripts>", 0), Block::Other);
        assert_eq!(block_at(b"<!DOCTYPE html>", 0), Block::Html(">"));
    }
}
