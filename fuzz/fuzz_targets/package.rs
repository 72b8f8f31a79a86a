//! Packages: any bytes opened as each kind of package and every chosen part read, within the
//! limits of a package of their size; never a panic, never past the bounds. The bytes are also
//! read as an Office part, an Office relationship part, an Excel sheet and shared strings, and
//! an OpenDocument part's text and links (whose scanners are not XML parsers).

#![no_main]

use irilint::extract::package::{Limits, Package};
use irilint::source::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    irilint::extract::ooxml::extract_each(&text, &mut |o| {
        let r = o.map.source_range();
        assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
    });
    let _ = irilint::extract::ooxml::hyperlink_texts(&text);
    let _ = irilint::extract::ooxml::external_targets(&text);
    let links = irilint::extract::ooxml::sheet_links(&text);
    let wanted = links
        .iter()
        .flat_map(|(_, cells)| cells)
        .filter_map(|c| match c {
            irilint::extract::ooxml::CellText::Shared(n) => Some(*n),
            irilint::extract::ooxml::CellText::Inline(_) => None,
        })
        .collect();
    let _ = irilint::extract::ooxml::shared_strings(&text, &wanted);
    irilint::extract::odf::extract_text(&text, &mut |o| {
        let r = o.map.source_range();
        assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
    });
    let _ = irilint::extract::odf::link_texts(&text);
    let limits = Limits::for_len(data.len());
    for kind in Format::PACKAGES {
        let Ok(mut package) = Package::open(kind, data, limits) else {
            continue;
        };
        let mut read = 0u64;
        for k in 0..package.chosen.len() {
            match package.read(k) {
                Ok(part) => {
                    assert!(part.bytes.len() as u64 <= limits.part);
                    read += part.bytes.len() as u64;
                    assert!(read <= limits.total);
                }
                Err(_) => break,
            }
        }
    }
});
