//! PDFs built in a test: objects written out with a classic cross-reference table, object
//! streams compressed with flate2 (a dependency of irilint).

use std::io::Write as _;

/// A PDF of `objects`, each `(number, body)`, with a cross-reference table, and the trailer's
/// `/Root 1 0 R` and `extra` keys.
pub fn pdf(objects: &[(u32, Vec<u8>)], extra: &str) -> Vec<u8> {
    let mut out = b"%PDF-1.5\n%\xE2\xE3\xCF\xD3\n".to_vec();
    let mut offsets = Vec::new();
    for (num, body) in objects {
        offsets.push((*num, out.len()));
        out.extend(format!("{num} 0 obj\n").as_bytes());
        out.extend(body);
        out.extend(b"\nendobj\n");
    }
    let size = objects.iter().map(|(n, _)| n + 1).max().unwrap_or(1);
    let xref = out.len();
    out.extend(format!("xref\n0 {size}\n").as_bytes());
    for num in 0..size {
        match offsets.iter().find(|(n, _)| *n == num) {
            Some((_, at)) => out.extend(format!("{at:010} 00000 n \n").as_bytes()),
            None => out.extend(b"0000000000 65535 f \n"),
        }
    }
    out.extend(
        format!("trailer\n<< /Size {size} /Root 1 0 R {extra} >>\nstartxref\n{xref}\n%%EOF\n")
            .as_bytes(),
    );
    out
}

/// The catalog (1), the page tree (2) over pages `3..3 + n`, as objects.
pub fn page_tree(n: u32) -> Vec<(u32, Vec<u8>)> {
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", 3 + i)).collect();
    vec![
        (1, b"<< /Type /Catalog /Pages 2 0 R >>".to_vec()),
        (
            2,
            format!("<< /Type /Pages /Kids [{}] /Count {n} >>", kids.join(" ")).into_bytes(),
        ),
    ]
}

/// A page whose `/Annots` is `annots`.
pub fn page(annots: &str) -> Vec<u8> {
    format!("<< /Type /Page /Parent 2 0 R /Annots {annots} >>").into_bytes()
}

/// A link annotation whose action is `action`.
pub fn link(action: &str) -> Vec<u8> {
    format!("<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A {action} >>").into_bytes()
}

/// A URI action dictionary.
pub fn uri(iri: &str) -> String {
    format!("<< /S /URI /URI ({iri}) >>")
}

/// Zlib-compressed `data`.
pub fn deflate(data: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(data).unwrap();
    z.finish().unwrap()
}

/// An object stream holding `objects`, compressed, as the body of an indirect object.
pub fn object_stream(objects: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let mut head = String::new();
    let mut body = Vec::new();
    for (num, obj) in objects {
        head.push_str(&format!("{num} {} ", body.len()));
        body.extend(obj);
        body.push(b'\n');
    }
    let mut data = head.clone().into_bytes();
    data.extend(body);
    stream(
        &format!(
            "/Type /ObjStm /N {} /First {} /Filter /FlateDecode",
            objects.len(),
            head.len()
        ),
        &deflate(&data),
    )
}

/// A stream object's body: `<< keys /Length n >> stream … endstream`.
pub fn stream(keys: &str, data: &[u8]) -> Vec<u8> {
    let mut out = format!("<< {keys} /Length {} >>\nstream\n", data.len()).into_bytes();
    out.extend(data);
    out.extend(b"\nendstream");
    out
}

/// Objects, each `(number, body)`.
pub type Objects = Vec<(u32, Vec<u8>)>;

/// A PDF 1.5 of `objects` and of object streams `(number, objects inside)`, with a
/// cross-reference stream (no predictor) as its last object, `/Root 1 0 R` and `extra` keys.
pub fn pdf_with_streams(
    objects: &[(u32, Vec<u8>)],
    streams: &[(u32, Objects)],
    extra: &str,
) -> Vec<u8> {
    let mut out = b"%PDF-1.5\n%\xE2\xE3\xCF\xD3\n".to_vec();
    // (number, type, field 2, field 3)
    let mut rows: Vec<(u32, u8, u64, u64)> = Vec::new();
    let mut write = |out: &mut Vec<u8>, num: u32, body: &[u8]| {
        rows.push((num, 1, out.len() as u64, 0));
        out.extend(format!("{num} 0 obj\n").as_bytes());
        out.extend(body);
        out.extend(b"\nendobj\n");
    };
    for (num, body) in objects {
        write(&mut out, *num, body);
    }
    for (num, inner) in streams {
        write(&mut out, *num, &object_stream(inner));
    }
    for (stm, inner) in streams {
        for (i, (num, _)) in inner.iter().enumerate() {
            rows.push((*num, 2, u64::from(*stm), i as u64));
        }
    }
    let xref_num = rows.iter().map(|r| r.0).max().unwrap_or(0) + 1;
    rows.push((xref_num, 1, out.len() as u64, 0));
    rows.sort();
    let mut data = Vec::new();
    // The /Index ranges: runs of consecutive numbers, as writers make them.
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for (num, kind, f2, f3) in &rows {
        match ranges.last_mut() {
            Some((start, count)) if *start + *count == *num => *count += 1,
            _ => ranges.push((*num, 1)),
        }
        data.push(*kind);
        data.extend(&f2.to_be_bytes());
        data.extend(&(*f3 as u32).to_be_bytes());
    }
    let index: Vec<String> = ranges.iter().map(|(s, c)| format!("{s} {c}")).collect();
    let index = index.join(" ");
    let xref_at = out.len();
    out.extend(format!("{xref_num} 0 obj\n").as_bytes());
    out.extend(stream(
        &format!(
            "/Type /XRef /Size {} /W [1 8 4] /Index [{index}] /Root 1 0 R {extra} /Filter /FlateDecode",
            xref_num + 1
        ),
        &deflate(&data),
    ));
    out.extend(format!("\nendobj\nstartxref\n{xref_at}\n%%EOF\n").as_bytes());
    out
}
