//! Inline suppressions: directives in a document's own comments that silence findings, and the
//! `unused-suppression` findings for directives that silence nothing.
//!
//! In HTML, XML and Markdown a directive is a comment, `<!-- irilint-disable-next-line RULE -->`;
//! in plain text it is a line of its own, after a comment leader (`#`, `//`, `..`, `%`, `;`,
//! `--`) or none. Four kinds:
//!
//! - `irilint-disable-next-line [RULE…]`: findings that start on the line after the directive;
//! - `irilint-disable [RULE…]` … `irilint-enable [RULE…]`: findings that start between the two
//!   (to the end of the document without an `enable`);
//! - `irilint-disable-file [RULE…]`: every finding of the document, wherever the directive is.
//!
//! RULE is a rule id, a group or `ALL`, separated by commas or spaces; none means every rule.
//! A token made only of dashes (` -- `, or ` - ` in XML, whose comments cannot hold `--`) starts
//! a reason, which is ignored. Markdown code spans and code blocks hold text, not comments, so a
//! directive there is not one. Each directive, and each rule it names, must silence something:
//! otherwise [`Suppressions::unused_up_to`] reports it, as it reports unknown rule ids and directives.

use std::ops::Range;

use crate::diagnostic::{Diagnostic, Location};
use crate::extract::{Comment, DIRECTIVE_PREFIX};
use crate::iri::chars::escape_unsafe;
use crate::rules::selection::{edit_distance, selected, suggest};
use crate::rules::suppression::UNUSED_SUPPRESSION;
use crate::rules::{RULES, Selection, Severity};
use crate::source::{Format, Source};

/// The comment leaders a plain-text directive may follow.
const TEXT_LEADERS: [&str; 6] = ["#", "//", "..", "%", ";", "--"];

/// One bit per rule of [`RULES`].
type RuleMask = u64;
const _: () = assert!(RULES.len() <= RuleMask::BITS as usize);

const ALL_RULES: RuleMask = if RULES.len() == RuleMask::BITS as usize {
    RuleMask::MAX
} else {
    (1 << RULES.len()) - 1
};

/// What a directive does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    NextLine,
    Disable,
    Enable,
    File,
}

impl Kind {
    const ALL: [(Kind, &'static str); 4] = [
        (Kind::NextLine, "irilint-disable-next-line"),
        (Kind::File, "irilint-disable-file"),
        (Kind::Disable, "irilint-disable"),
        (Kind::Enable, "irilint-enable"),
    ];

    fn name(self) -> &'static str {
        Kind::ALL
            .iter()
            .find(|(k, _)| *k == self)
            .map_or("", |p| p.1)
    }
}

/// A rule id, group or `ALL` named by a directive.
#[derive(Debug, Clone)]
struct Name {
    text: String,
    start: Location,
    end: Location,
    /// The rules it names; 0 when it names none.
    mask: RuleMask,
}

/// A directive, located.
#[derive(Debug, Clone)]
struct Directive {
    /// `None` for a word starting with `irilint-` that is no directive (`irilint-disable-line`).
    kind: Option<Kind>,
    /// The word as written, for an unknown one (`None` for a known one).
    word: Option<Box<str>>,
    start: Location,
    end: Location,
    /// The names; empty means every rule.
    names: Vec<Name>,
    /// Every rule it names (all for none).
    mask: RuleMask,
    /// The rules it silenced something of (for `enable`: the rules it ended a range of).
    used: RuleMask,
    /// For a range: where it ends (the `enable`'s line, or `None` at the end of the document).
    until_line: Option<usize>,
    /// For `disable-next-line`: the line it silences (1-based). The line after the directive;
    /// in reStructuredText the first line after it that is not blank, since a comment there
    /// ends at a blank line (without one, docutils warns of an unexpected unindent).
    next_line: usize,
}

/// A stretch of the document where a `disable` silences one rule.
#[derive(Debug, Clone)]
struct Scope {
    directive: usize,
    rule: usize,
    from: usize,
    to: usize,
}

/// The directives of one document and what they silenced so far.
///
/// A finding is looked up, not compared with every directive: the `disable-next-line` lines
/// are sorted, the `disable`…`enable` scopes of one rule are disjoint and sorted, and the
/// `disable-file` directives are one mask. (Each finding was compared with every directive: a
/// page of 100,000 directives and as many findings took 2 s.)
#[derive(Debug, Clone, Default)]
pub struct Suppressions {
    directives: Vec<Directive>,
    /// Sorted by rule, then start.
    scopes: Vec<Scope>,
    /// The lines a `disable-next-line` silences, sorted, each once: the rules silenced there,
    /// and those it silenced something of.
    next_lines: Vec<(usize, RuleMask, RuleMask)>,
    /// The rules a `disable-file` silences, and those it silenced something of.
    file: (RuleMask, RuleMask),
    /// The rules that run on the document.
    running: RuleMask,
    /// The severity of `unused-suppression` there, if it runs.
    report: Option<Severity>,
    /// Past [`MAX_DIRECTIVES`]: where the first directive not read is, and how many are not.
    unread: Option<(Location, Location, usize)>,
}

/// The most directives of one document that are read: the others silence nothing, and
/// `unused-suppression` says so once. Each directive read is kept with its places until the
/// document is reported (about 200 bytes for a directive of 20 or 30, 300 with a rule name):
/// 200,000 of them took 96 MB for a 12 MB page, and 50,000 naming a rule were still 15 MB of
/// the 50 MB a run may take besides twice the file.
pub const MAX_DIRECTIVES: usize = 10_000;

impl Suppressions {
    /// The directives of `source`, from its `comments` (or its lines, for plain text); the
    /// `selection` decides which rules run there and whether unused directives are reported.
    pub fn parse(source: &Source, comments: &[Comment], selection: &Selection) -> Suppressions {
        let text = (source.format == Format::Text).then_some(source.text.as_str());
        let found = comments
            .iter()
            .map(|c| (c.range.clone(), c.body.clone()))
            .chain(text.into_iter().flat_map(text_directives));
        let mut directives = Vec::new();
        let mut unread = None;
        for d in found.filter_map(|(whole, body)| directive(source, whole, body)) {
            if directives.len() < MAX_DIRECTIVES {
                directives.push(d);
            } else {
                unread.get_or_insert((d.start, d.end, 0)).2 += 1;
            }
        }
        let mut s = Suppressions {
            directives,
            unread,
            scopes: Vec::new(),
            next_lines: Vec::new(),
            file: (0, 0),
            running: 0,
            report: selection.severity_of(UNUSED_SUPPRESSION.id),
        };
        for (i, r) in RULES.iter().enumerate() {
            if selection.is_enabled(r.id) {
                s.running |= 1 << i;
            }
        }
        s.build_scopes(source.text.len());
        s.build_lookups();
        s
    }

    /// Sorts the scopes and gathers the `disable-next-line` lines and the `disable-file` rules.
    fn build_lookups(&mut self) {
        self.scopes.sort_by_key(|scope| (scope.rule, scope.from));
        let mut lines: Vec<(usize, RuleMask, RuleMask)> = Vec::new();
        for d in &self.directives {
            match d.kind {
                Some(Kind::NextLine) => lines.push((d.next_line, d.mask, 0)),
                Some(Kind::File) => self.file.0 |= d.mask,
                _ => {}
            }
        }
        lines.sort_unstable_by_key(|l| l.0);
        lines.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                kept.1 |= later.1;
            }
            same
        });
        self.next_lines = lines;
    }

    /// True when the document has no directive.
    pub fn is_empty(&self) -> bool {
        self.directives.is_empty()
    }

    /// True when a directive may silence the rule `id`.
    pub fn may_cover(&self, id: &str) -> bool {
        let Some(i) = RULES.iter().position(|r| r.id == id) else {
            return false;
        };
        self.directives
            .iter()
            .any(|d| d.kind.is_some_and(|k| k != Kind::Enable) && d.mask & (1 << i) != 0)
    }

    /// Pairs each `disable` with the `enable` that ends it, rule by rule.
    fn build_scopes(&mut self, len: usize) {
        let mut open: Vec<Option<(usize, usize)>> = vec![None; RULES.len()];
        for i in 0..self.directives.len() {
            let d = &self.directives[i];
            let (kind, mask, at) = (d.kind, d.mask, d.end.text_offset);
            match kind {
                Some(Kind::Disable) => {
                    for (rule, slot) in open.iter_mut().enumerate() {
                        if mask & (1 << rule) != 0 && slot.is_none() {
                            *slot = Some((i, at));
                        }
                    }
                }
                Some(Kind::Enable) => {
                    let from = self.directives[i].start.text_offset;
                    let line = self.directives[i].start.line;
                    for (rule, slot) in open.iter_mut().enumerate() {
                        if mask & (1 << rule) == 0 {
                            continue;
                        }
                        if let Some((d, start)) = slot.take() {
                            self.scopes.push(Scope {
                                directive: d,
                                rule,
                                from: start,
                                to: from,
                            });
                            self.directives[d].until_line = Some(line);
                            self.directives[i].used |= 1 << rule;
                        }
                    }
                }
                _ => {}
            }
        }
        for (rule, slot) in open.into_iter().enumerate() {
            if let Some((d, start)) = slot {
                self.scopes.push(Scope {
                    directive: d,
                    rule,
                    from: start,
                    to: len,
                });
            }
        }
    }

    /// Removes from `diagnostics` those a directive silences and returns how many it removed.
    /// A silenced diagnostic's withheld findings ([`Diagnostic::withheld`]) speak in its place,
    /// unless a directive silences them too: a directive names a rule, and silences that
    /// rule's finding, never what another rule found.
    pub fn apply(&mut self, diagnostics: &mut Vec<Diagnostic>) -> usize {
        if self.directives.is_empty() {
            return 0;
        }
        let mut silenced = 0;
        let mut kept = Vec::with_capacity(diagnostics.len());
        for d in diagnostics.drain(..) {
            silenced += self.release(d, &mut kept);
        }
        *diagnostics = kept;
        silenced
    }

    /// Keeps `d` in `out` unless a directive silences it, and then, in its place, the findings
    /// it withheld that no directive silences; returns how many were silenced.
    fn release(&mut self, mut d: Diagnostic, out: &mut Vec<Diagnostic>) -> usize {
        if !self.silences(d.rule, &d.start) {
            d.speak();
            out.push(d);
            return 0;
        }
        1 + d
            .withheld
            .into_iter()
            .map(|w| self.release(w, out))
            .sum::<usize>()
    }

    /// Whether a directive silences a finding of rule `id` that starts at `start`; marks every
    /// directive that does as used.
    pub fn silences(&mut self, id: &str, start: &Location) -> bool {
        let Some(rule) = RULES.iter().position(|r| r.id == id) else {
            return false;
        };
        let bit: RuleMask = 1 << rule;
        let mut hit = false;
        if self.file.0 & bit != 0 {
            self.file.1 |= bit;
            hit = true;
        }
        if let Ok(i) = self.next_lines.binary_search_by_key(&start.line, |l| l.0)
            && self.next_lines[i].1 & bit != 0
        {
            self.next_lines[i].2 |= bit;
            hit = true;
        }
        // The last scope of the rule that starts at or before the finding: the scopes of one
        // rule do not overlap.
        let at = start.text_offset;
        let after = self
            .scopes
            .partition_point(|s| (s.rule, s.from) <= (rule, at));
        if let Some(scope) = after.checked_sub(1).map(|i| &self.scopes[i])
            && scope.rule == rule
            && at < scope.to
        {
            self.directives[scope.directive].used |= bit;
            hit = true;
        }
        hit
    }

    /// The rules `d` silenced something of (for `enable`: ended a range of).
    fn used(&self, d: &Directive) -> RuleMask {
        let looked_up = match d.kind {
            Some(Kind::File) => self.file.1,
            Some(Kind::NextLine) => self
                .next_lines
                .binary_search_by_key(&d.next_line, |l| l.0)
                .map_or(0, |i| self.next_lines[i].2),
            _ => 0,
        };
        d.used | (looked_up & d.mask)
    }

    /// The `unused-suppression` diagnostics: directives and named rules that silenced nothing,
    /// unknown rule ids and unknown directives (none when the rule does not run). The first
    /// `most` of them are made, the others only counted: a
    /// page of thousands of directives that hide nothing is no more reports than a file lists
    /// (each made was about a kilobyte: 80,000 of them took 120 MB for a 5.6 MB page; and a
    /// report only counted is not written, nor its suggestion looked for). The count is of
    /// reports of `unused-suppression` at its severity.
    pub fn unused_up_to(&self, most: usize) -> (Vec<Diagnostic>, usize) {
        let Some(severity) = self.report else {
            return (Vec::new(), 0);
        };
        let mut reports = Reports {
            listed: Vec::new(),
            most,
            more: 0,
        };
        for d in &self.directives {
            self.report_directive(d, severity, &mut reports);
        }
        // Listed even past `most`: the one report that says directives were not read.
        if let Some((start, end, n)) = self.unread {
            reports.listed.push(
                report(
                    severity,
                    start,
                    end,
                    format!(
                        "more than {MAX_DIRECTIVES} suppression directives: this one and the {} after it are not read and silence nothing",
                        n - 1
                    ),
                    "silence a rule in the whole file with one `irilint-disable-file RULE`, or \
                     exclude the file"
                        .to_string(),
                ),
            );
        }
        (reports.listed, reports.more)
    }

    /// The severity its reports have, when the rule runs.
    pub fn report_severity(&self) -> Option<Severity> {
        self.report
    }

    fn report_directive(&self, d: &Directive, severity: Severity, out: &mut Reports) {
        let report = |start, end, message, help| report(severity, start, end, message, help);
        let Some(kind) = d.kind else {
            out.add(|| {
                let written = d.word.as_deref().unwrap_or_default();
                let word = escape_unsafe(written);
                let help = match closest_directive(written) {
                    // ESLint's same-line form: irilint counts lines the other way round.
                    _ if written == "irilint-disable-line" => {
                        "irilint has no same-line directive: put `irilint-disable-next-line` on \
                         the line before"
                            .to_string()
                    }
                    Some(k) => format!("did you mean `{k}`?"),
                    None => "the directives are `irilint-disable-next-line`, `irilint-disable`, \
                             `irilint-enable` and `irilint-disable-file`"
                        .to_string(),
                };
                report(
                    d.start,
                    d.end,
                    format!("unknown suppression directive `{word}`"),
                    help,
                )
            });
            return;
        };
        let used = self.used(d);
        let remove =
            "remove it: a suppression that hides nothing now would hide a new finding later";
        for name in &d.names {
            if name.mask == 0 {
                out.add(|| {
                    let help = match suggest(&name.text) {
                        Some(s) => format!("did you mean `{s}`? (`irilint rules` lists them)"),
                        None => "`irilint rules` lists the rule ids and groups".to_string(),
                    };
                    report(
                        name.start,
                        name.end,
                        format!(
                            "unknown rule or group `{}` in `{}`",
                            escape_unsafe(&name.text),
                            kind.name()
                        ),
                        help,
                    )
                });
            } else if name.mask & used == 0 {
                out.add(|| {
                    let shown = escape_unsafe(&name.text);
                    let message = if name.mask & self.running == 0 {
                        format!(
                            "unused suppression: `{shown}` does not run on this file (see `--select` and the configuration)"
                        )
                    } else {
                        format!("unused suppression: {}", self.nothing(d, Some(&shown)))
                    };
                    report(name.start, name.end, message, remove.to_string())
                });
            }
        }
        if d.names.is_empty() && used == 0 {
            out.add(|| {
                report(
                    d.start,
                    d.end,
                    format!("unused suppression: {}", self.nothing(d, None)),
                    remove.to_string(),
                )
            });
        }
    }

    /// "no `rule` finding on the next line (line 12)" and the like.
    fn nothing(&self, d: &Directive, rule: Option<&str>) -> String {
        let what = match (rule, d.kind) {
            (_, Some(Kind::Enable)) => {
                return match rule {
                    Some(r) => format!("`irilint-enable` ends no `irilint-disable` of `{r}`"),
                    None => "`irilint-enable` ends no `irilint-disable`".to_string(),
                };
            }
            (Some(r), _) => format!("no `{r}` finding"),
            (None, _) => "no finding".to_string(),
        };
        match d.kind {
            Some(Kind::NextLine) => format!("{what} on the next line (line {})", d.next_line),
            Some(Kind::File) => format!("{what} in this file"),
            _ => match d.until_line {
                Some(line) => format!("{what} between here and its `irilint-enable` (line {line})"),
                None => format!("{what} from here to the end of the file"),
            },
        }
    }
}

/// The reports of unused directives: the first `most` made, the others counted.
struct Reports {
    listed: Vec<Diagnostic>,
    most: usize,
    more: usize,
}

impl Reports {
    /// Makes the report, or counts it past the first `most`.
    fn add(&mut self, make: impl FnOnce() -> Diagnostic) {
        if self.listed.len() < self.most {
            self.listed.push(make());
        } else {
            self.more += 1;
        }
    }
}

/// A report of `unused-suppression`.
fn report(
    severity: Severity,
    start: Location,
    end: Location,
    message: String,
    help: String,
) -> Diagnostic {
    Diagnostic {
        rule: UNUSED_SUPPRESSION.id,
        severity,
        message: message.into(),
        help: Some(help.into()),
        start,
        end,
        also: Vec::new(),
        iri: None,
        iri_range: None,
        component: None,
        rfc: None,
        related: Vec::new(),
        fix: None,
        withheld: Vec::new(),
        unspoken: None,
    }
}

/// The directive word closest to `word`, if one is close.
fn closest_directive(word: &str) -> Option<&'static str> {
    Kind::ALL
        .iter()
        .map(|&(_, name)| (edit_distance(word, name), name))
        .filter(|&(d, _)| d <= 6)
        .min_by_key(|&(d, _)| d)
        .map(|(_, name)| name)
}

/// The directive lines of a plain-text document: `(whole, body)` ranges, where `whole` is the
/// line from its comment leader on and `body` what follows the leader.
fn text_directives(text: &str) -> impl Iterator<Item = (Range<usize>, Range<usize>)> + '_ {
    // memmem, not `str::find`: every plain-text document is searched whole.
    let finder = memchr::memmem::Finder::new(DIRECTIVE_PREFIX);
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(k) = finder.find(&text.as_bytes()[from..]) {
            let at = from + k;
            let line_start = text[..at].rfind('\n').map_or(0, |p| p + 1);
            let line_end = text[at..].find('\n').map_or(text.len(), |p| at + p);
            from = line_end.max(at + DIRECTIVE_PREFIX.len());
            let line = &text[line_start..line_end];
            let content = line.trim_start();
            let whole_start = line_start + (line.len() - content.len());
            let content = content.trim_end();
            let whole = whole_start..whole_start + content.len();
            let after_leader = TEXT_LEADERS
                .iter()
                .find_map(|l| content.strip_prefix(l))
                .unwrap_or(content);
            let body_start = whole.end - after_leader.len();
            if after_leader.trim_start().starts_with(DIRECTIVE_PREFIX)
                && body_start + (after_leader.len() - after_leader.trim_start().len()) == at
            {
                return Some((whole.clone(), body_start..whole.end));
            }
        }
        None
    })
}

/// Parses the directive in `source.text[body]`; `None` when the text is not one.
fn directive(source: &Source, whole: Range<usize>, body: Range<usize>) -> Option<Directive> {
    let text = &source.text;
    let content = text.get(body.clone())?;
    let lead = content.len() - content.trim_start().len();
    let mut tokens = tokens(content).into_iter();
    let (word_range, word) = tokens.next()?;
    if !word.starts_with(DIRECTIVE_PREFIX) || word_range.start != lead {
        return None;
    }
    let kind = Kind::ALL.iter().find(|(_, n)| *n == word).map(|p| p.0);
    // In plain text only a known directive is one: a line may start with such a word.
    if kind.is_none() && source.format == Format::Text {
        return None;
    }
    let at = |r: &Range<usize>| {
        (
            Location::of(source, body.start + r.start),
            Location::of(source, body.start + r.end),
        )
    };
    let mut names = Vec::new();
    if kind.is_some() {
        for (r, t) in tokens {
            if t.chars().all(|c| c == '-' || c == '—') {
                break;
            }
            let (start, end) = at(&r);
            // Its suggestion, when it names nothing, is looked for only if it is reported.
            let mask = selected(t).fold(0, |m, i| m | (1 << i));
            names.push(Name {
                text: t.to_string(),
                start,
                end,
                mask,
            });
        }
    }
    let mask = if names.is_empty() {
        ALL_RULES
    } else {
        names.iter().fold(0, |m, n| m | n.mask)
    };
    let (start, end) = match kind {
        Some(_) => (
            Location::of(source, whole.start),
            Location::of(source, whole.end),
        ),
        None => at(&word_range),
    };
    let next_line = match source.format {
        Format::Rst => next_line_not_blank(source, end.line),
        _ => end.line + 1,
    };
    Some(Directive {
        kind,
        word: kind.is_none().then(|| word.into()),
        start,
        end,
        names,
        mask,
        used: 0,
        until_line: None,
        next_line,
    })
}

/// The first line after line `line` (1-based) of `source` that is not blank, or the line after
/// the last one.
fn next_line_not_blank(source: &Source, line: usize) -> usize {
    let lines = source.lines();
    let mut next = line + 1;
    // `line_range` counts from 0: line `next` (1-based) is its `next - 1`.
    while next <= lines.len()
        && source.text[lines.line_range(&source.text, next - 1)]
            .trim()
            .is_empty()
    {
        next += 1;
    }
    next
}

/// The words of `s` (separated by white space and commas) with their ranges.
fn tokens(s: &str) -> Vec<(Range<usize>, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices().chain(std::iter::once((s.len(), ' '))) {
        let sep = c.is_whitespace() || c == ',';
        match (start, sep) {
            (None, false) => start = Some(i),
            (Some(b), true) => {
                out.push((b..i, &s[b..i]));
                start = None;
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_on_spaces_and_commas() {
        let t: Vec<&str> = tokens(" a, b ,c  d").into_iter().map(|t| t.1).collect();
        assert_eq!(t, ["a", "b", "c", "d"]);
    }

    #[test]
    fn text_directives_need_a_line_of_their_own() {
        let text = "# irilint-disable-next-line x\nsee irilint-disable here\n  .. irilint-enable\nirilint-disable-file -- why\n";
        let out: Vec<_> = text_directives(text).collect();
        let bodies: Vec<&str> = out.iter().map(|(_, b)| &text[b.clone()]).collect();
        assert_eq!(
            bodies,
            [
                " irilint-disable-next-line x",
                " irilint-enable",
                "irilint-disable-file -- why"
            ]
        );
        let wholes: Vec<&str> = out.iter().map(|(w, _)| &text[w.clone()]).collect();
        assert_eq!(wholes[1], ".. irilint-enable");
    }

    #[test]
    fn a_near_miss_directive_gets_a_suggestion() {
        assert_eq!(closest_directive("irilint-enabled"), Some("irilint-enable"));
        assert_eq!(
            closest_directive("irilint-disable-nextline"),
            Some("irilint-disable-next-line")
        );
    }
}
