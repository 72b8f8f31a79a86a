//! `bidi-mixed-direction` and `bidi-component-edge` (RFC 3987 §4.2): the IRI draft's nine Bidi
//! Notation examples (draft-duerst-iri-03 §4.4) written out in Hebrew and Arabic, realistic
//! right-to-left IRIs that must stay quiet, and the cases that must fire, each with its exact
//! findings.

mod common;

use irilint::iri::Component;
use irilint::rules::{self, Selection, Severity};

const MIXED: &str = "bidi-mixed-direction";
const EDGE: &str = "bidi-component-edge";

/// The findings of the two rules (with the default selection's severities): rule, severity and
/// the text underlined.
fn findings(iri: &str) -> Vec<(&'static str, Severity, String)> {
    let selection = Selection::from_selectors(&[MIXED, EDGE], &[], &[]).unwrap();
    rules::check(iri, &selection)
        .into_iter()
        .map(|f| (f.rule.id, f.severity, iri[f.range].to_string()))
        .collect()
}

fn assert_quiet(iris: &[&str]) {
    common::assert_quiet(iris, findings);
}

fn w(rule: &'static str, span: &str) -> (&'static str, Severity, String) {
    (rule, Severity::Warning, span.to_string())
}

fn i(rule: &'static str, span: &str) -> (&'static str, Severity, String) {
    (rule, Severity::Info, span.to_string())
}

/// The same IRI with a scheme whose host is not a DNS name in the sense of IDNA, so that its host
/// labels are checked by these rules too.
fn non_dns(iri: &str) -> String {
    iri.replacen("http://", "svn://", 1)
}

// ---------------------------------------------------------------------------------------------
// draft-duerst-iri-03 §4.4, examples 1 to 7: legal bidi IRIs, no finding.

/// Each example in Hebrew and in Arabic. Upper-case letters of the Bidi Notation are Hebrew or
/// Arabic words, lower-case ones English.
const DRAFT_EXAMPLES_1_TO_7: &[(&str, &str)] = &[
    // 1. http://ab.CDEFGH.ij/kl/mn/op.html: one rtl component.
    (
        "http://www.ספרייה.example/books/new/list.html",
        "http://www.مكتبة.example/books/new/list.html",
    ),
    // 2. http://ab.CDE.FGH/ij/kl/mn/op.html: consecutive rtl components.
    (
        "http://www.מוזיאון.ישראל/en/visit/hours/index.html",
        "http://www.متحف.مصر/en/visit/hours/index.html",
    ),
    // 3. http://AB.CD.EF/GH/IJ/KL?MN=OP;QR=ST#UV: everything but the scheme rtl.
    (
        "http://מוזיאון.דוגמה.ישראל/תערוכות/קבועות/אמנות?שפה=עברית;סדר=שם#פתיחה",
        "http://متحف.مثال.مصر/معارض/دائمة/فنون?لغة=عربية;ترتيب=اسم#افتتاح",
    ),
    // 4. http://AB.CD.ef/gh/IJ/KL.html: several rtl sequences; `KL.html` relies on the
    //    extension being a component of its own (§4.2).
    (
        "http://חנות.ספרים.example/shop/ספרים/חדשים.html",
        "http://متجر.كتب.example/shop/كتب/جديدة.html",
    ),
    // 5. http://ab.cd.EF/GH/ij/kl.html: a label and a segment inverted together.
    (
        "http://www.example.ישראל/חדשות/en/index.html",
        "http://www.example.مصر/أخبار/en/index.html",
    ),
    // 6. http://ab.CD.EF/GH/IJ/kl.html
    (
        "http://www.דוגמה.ישראל/חדשות/ספורט/index.html",
        "http://www.مثال.مصر/أخبار/رياضة/index.html",
    ),
    // 7. http://ab.CDE123FGH.ij/kl/mn/op.html: digits inside an rtl component.
    (
        "http://www.ערוץ10חדשות.example/live/news/index.html",
        "http://www.قناة10أخبار.example/live/news/index.html",
    ),
];

#[test]
fn draft_examples_1_to_7_are_quiet() {
    for (hebrew, arabic) in DRAFT_EXAMPLES_1_TO_7 {
        // As written (http: host labels are left to idn-invalid) and with a scheme whose host
        // labels these rules check.
        assert_quiet(&[hebrew, arabic, &non_dns(hebrew), &non_dns(arabic)]);
    }
    // Example 7's digits inside a path segment, and Arabic-Indic digits.
    assert_quiet(&[
        "http://www.example.com/ערוץ10חדשות/live",
        "http://www.example.com/قناة١٠أخبار/live",
        "svn://قناة١٠أخبار.example/live",
    ]);
}

// ---------------------------------------------------------------------------------------------
// Examples 8 and 9 (not allowed): digits at the edges of rtl components.

#[test]
fn draft_example_8_digits_at_the_edges() {
    // http://ab.cd.ef/GH1/2IJ/KL.html: `1/2` is displayed as a fraction.
    assert_eq!(
        findings("http://ab.cd.ef/שיעור1/2תרגיל/הערות.html"),
        [w(EDGE, "1"), w(EDGE, "2")]
    );
    assert_eq!(
        findings("http://ab.cd.ef/درس1/2تمرين/ملاحظات.html"),
        [w(EDGE, "1"), w(EDGE, "2")]
    );
}

#[test]
fn draft_example_9_escapes_at_the_edges() {
    // http://ab.cd.ef/GH%31/%32IJ/KL.html: the escapes are displayed differently, and
    // differently for Hebrew and Arabic, but still out of place.
    assert_eq!(
        findings("http://ab.cd.ef/שיעור%31/%32תרגיל/הערות.html"),
        [w(EDGE, "%31"), w(EDGE, "%32")]
    );
    assert_eq!(
        findings("http://ab.cd.ef/درس%31/%32تمرين/ملاحظات.html"),
        [w(EDGE, "%31"), w(EDGE, "%32")]
    );
}

// ---------------------------------------------------------------------------------------------
// Real right-to-left text that must stay quiet.

#[test]
fn realistic_right_to_left_iris_are_quiet() {
    assert_quiet(&[
        // Arabic.
        "https://مثال.إختبار/صفحة",
        "https://مثال.إختبار/صفحة/الرئيسية?بحث=قاموس#نتائج",
        "https://ar.wikipedia.org/wiki/اللغة_العربية",
        "https://example.com/بحث?كلمة=قاموس#نتائج",
        "https://example.com/كِتَابٌ",
        "https://example.com/أخبار/الرياضة/كرة-القدم",
        // Hebrew, with niqqud, maqaf, geresh and gershayim (all right-to-left or marks).
        "https://דוגמה.טעסט/עמוד",
        "https://דוגמה.טעסט/עמוד/ראשי",
        "https://he.wikipedia.org/wiki/עברית",
        "https://he.wikipedia.org/wiki/מלחמת_העולם_השנייה",
        "https://example.co.il/חיפוש?מילה=שלום",
        "https://example.com/שָׁלוֹם",
        "https://example.com/בית\u{5BE}ספר",
        "https://example.com/תת\u{5BE}",
        "https://example.com/ג\u{5F3}ירפה",
        "https://example.com/פרופ\u{5F3}",
        "https://example.com/דו\u{5F4}ח",
        "https://example.com/מה-נשמע",
        // Persian with ZWNJ, Urdu, Yiddish.
        "https://fa.wikipedia.org/wiki/زبان_فارسی",
        "https://مثال.ایران/می\u{200C}خواهم/کتاب\u{200C}ها",
        "https://ur.wikipedia.org/wiki/اردو",
        "https://مثال.پاکستان/صفحہ",
        "https://yi.wikipedia.org/wiki/ייִדיש",
        // An Arabic segment and a separate ASCII one; values that are separate components.
        "https://example.com/صفحة/page2",
        "https://example.co.il/חיפוש?q=שלום&page=2",
        "https://example.com/بحث?q=كتاب+جديد&lang=ar&page=10",
        // File extensions are components of their own.
        "https://example.com/מסמכים/דוח.pdf",
        "https://example.com/ملفات/صورة.tar.gz",
        "https://example.com/download?file=דוח.pdf",
        // Escapes inside, or a component that is percent-encoded as a whole (§4.2's remedy).
        "https://example.com/שלום%20עולם",
        "https://example.com/שלום%2Cעולם",
        "https://example.com/%D7%A9%D7%9C%D7%95%D7%9D1",
        // Hosts of other schemes, and mail addresses.
        "svn://שרת.דוגמה/מאגר",
        "file://שרת/תיקייה/קובץ.txt",
        "mailto:שלום@דוגמה.טעסט",
        "mailto:user@דוגמה.טעסט?subject=שלום",
        "mailto:דנה@example.com,יוסי@example.com",
    ]);
}

#[test]
fn left_to_right_and_other_scripts_are_quiet() {
    assert_quiet(&[
        "https://example.com/path/page?q=1#top",
        "https://例え.テスト/ページ?検索=日本語#概要",
        "https://zh.wikipedia.org/wiki/中文",
        "https://한국.example/검색?질의=한국어",
        "https://example.com/नमस्ते/क्\u{200D}ष/क्\u{200C}ष",
        "https://bn.wikipedia.org/wiki/বাংলা_ভাষা",
        "https://ta.wikipedia.org/wiki/தமிழ்",
        "https://th.wikipedia.org/wiki/ภาษาไทย",
        "https://el.wikipedia.org/wiki/Ελληνική_γλώσσα",
        "https://пример.рф/страница?поиск=слово",
        "https://uk.wikipedia.org/wiki/Українська_мова",
        "https://sr.wikipedia.org/wiki/Српски_језик",
        "https://ka.wikipedia.org/wiki/ქართული_ენა",
        "https://hy.wikipedia.org/wiki/Հայերեն",
        "https://am.wikipedia.org/wiki/አማርኛ",
        "https://vi.wikipedia.org/wiki/Tiếng_Việt",
        "https://tr.wikipedia.org/wiki/Kırıkkale",
        "https://de.wikipedia.org/wiki/Straße",
        "https://example.com/🎉/party?mood=😀",
    ]);
}

// ---------------------------------------------------------------------------------------------
// What fires.

#[test]
fn mixed_direction_in_a_component() {
    assert_eq!(
        findings("https://example.com/abcאבג/"),
        [w(MIXED, "abcאבג")]
    );
    assert_eq!(
        findings("https://example.com/paypalتسجيل/x"),
        [w(MIXED, "paypalتسجيل")]
    );
    // Only the name part when an extension is split off.
    assert_eq!(
        findings("https://example.com/דוחfinal.pdf"),
        [w(MIXED, "דוחfinal")]
    );
    // Userinfo, also under a DNS scheme.
    assert_eq!(
        findings("ftp://משתמשuser@example.com/"),
        [w(MIXED, "משתמשuser")]
    );
    // Host labels of schemes that are not DNS-based.
    assert_eq!(findings("svn://abcשרת.example/"), [w(MIXED, "abcשרת")]);
    // Both rules when a mixed component also ends with digits after right-to-left letters.
    assert_eq!(
        findings("https://example.com/abcשלום1"),
        [w(MIXED, "abcשלום1"), w(EDGE, "1")]
    );
}

#[test]
fn mixed_direction_is_advice_in_the_query_and_fragment() {
    assert_eq!(
        findings("https://example.com/?q=שלוםabc"),
        [i(MIXED, "שלוםabc")]
    );
    assert_eq!(
        findings("https://example.com/?שלוםabc=1"),
        [i(MIXED, "שלוםabc")]
    );
    assert_eq!(
        findings("https://example.com/page#Python_(שפת_תכנות)"),
        [i(MIXED, "Python_(שפת_תכנות)"), i(EDGE, ")")]
    );
    // Also with the default selection, where the rule runs as a warning.
    let default = Selection::default();
    assert!(
        rules::check("https://example.com/?q=שלוםabc", &default)
            .iter()
            .all(|f| f.rule.id != MIXED || f.severity == Severity::Info)
    );
}

#[test]
fn component_edges() {
    assert_eq!(findings("https://example.com/שלום1/x"), [w(EDGE, "1")]);
    assert_eq!(findings("https://example.com/صفحة%31/x"), [w(EDGE, "%31")]);
    assert_eq!(findings("https://example.com/صفحة1"), [w(EDGE, "1")]);
    assert_eq!(findings("https://example.com/1شارع"), [w(EDGE, "1")]);
    // Arabic-Indic (AN) and extended Arabic-Indic (EN) digits are numbers too.
    assert_eq!(findings("https://example.com/صفحة١"), [w(EDGE, "١")]);
    assert_eq!(findings("https://example.com/صفحه۲"), [w(EDGE, "۲")]);
    // Neutral punctuation, at either end, with the whole run underlined.
    assert_eq!(
        findings("https://example.com/(שלום)"),
        [w(EDGE, "("), w(EDGE, ")")]
    );
    assert_eq!(
        findings("https://example.com/שלום-2023!"),
        [w(EDGE, "-2023!")]
    );
    assert_eq!(
        findings("https://example.com/مرحبا\u{60C}"),
        [w(EDGE, "\u{60C}")]
    );
    // A dot before a digit is no extension: `.2` joins the right-to-left run.
    assert_eq!(findings("https://example.com/דוח.2"), [w(EDGE, ".2")]);
    assert_eq!(findings("https://example.com/שלום1.html"), [w(EDGE, "1")]);
    // A mark at the start belongs to no right-to-left letter.
    assert_eq!(
        findings("https://example.com/\u{5B4}שלום"),
        [w(EDGE, "\u{5B4}")]
    );
    // A digit swap across components, the Trojan of example 8.
    assert_eq!(
        findings("https://example.com/a/שלום1/2עולם"),
        [w(EDGE, "1"), w(EDGE, "2")]
    );
}

#[test]
fn component_edges_in_other_components() {
    // Host labels of other schemes; userinfo; a mail address's local part.
    assert_eq!(findings("svn://שרת1.example/"), [w(EDGE, "1")]);
    assert_eq!(findings("ftp://1משתמש@example.com/"), [w(EDGE, "1")]);
    assert_eq!(findings("mailto:1שלום@example.com"), [w(EDGE, "1")]);
    assert_eq!(
        findings("mailto:a@example.com,דנה2@example.com"),
        [w(EDGE, "2")]
    );
    // Query values and the fragment: advice.
    assert_eq!(findings("https://example.com/?q=שלום1"), [i(EDGE, "1")]);
    assert_eq!(findings("https://example.com/#פרק_1"), [i(EDGE, "_1")]);
}

#[test]
fn dns_host_labels_are_left_to_idn_invalid() {
    for iri in [
        "https://שרת1.example/",
        "http://abcשרת.example/",
        "HTTPS://1שרת.example/",
        "ftp://שרת1.example/",
        "ws://שרת1.example/",
        "wss://שרת1.example/",
        "//שרת1.example/page",
        "mailto:user@שרת1.example",
        "mailto:a@example.com,b@abcשרת.example",
    ] {
        assert_eq!(findings(iri), [], "{iri}");
    }
}

#[test]
fn hidden_characters_are_left_to_the_other_rules() {
    // Bidi formatting characters are bidi-formatting-character's, ZWNJ and other boundary
    // neutrals invisible-character's: they neither make a component mixed nor form an edge.
    assert_quiet(&[
        "https://example.com/abc\u{200F}",
        "https://example.com/שלום\u{200E}",
        "https://example.com/\u{202E}שלום\u{202C}",
        "https://example.com/\u{61C}abc",
        "https://example.com/می\u{200C}خواهم\u{200C}",
        "https://example.com/\u{200B}שלום",
    ]);
    // ... but they do not hide a real edge.
    assert_eq!(
        findings("https://example.com/שלום\u{200B}1"),
        [w(EDGE, "1")]
    );
}

#[test]
fn messages_name_characters_and_stay_ascii() {
    let selection = Selection::all();
    let found = rules::check("https://example.com/abcשלום1?q=x#y", &selection);
    let mixed = found.iter().find(|f| f.rule.id == MIXED).unwrap();
    assert!(
        mixed
            .message
            .contains("U+05E9 HEBREW LETTER SHIN is right-to-left")
    );
    assert!(
        mixed
            .message
            .contains("U+0061 LATIN SMALL LETTER A left-to-right")
    );
    assert!(mixed.message.starts_with("the path segment mixes"));
    assert_eq!(mixed.component, Some(Component::Path));
    let edge = found.iter().find(|f| f.rule.id == EDGE).unwrap();
    assert!(
        edge.message
            .contains("ends with `1` (U+0031 DIGIT ONE), which is not right-to-left"),
        "{}",
        edge.message
    );
    for f in found
        .iter()
        .filter(|f| f.rule.id == MIXED || f.rule.id == EDGE)
    {
        assert!(f.message.is_ascii(), "{}", f.message);
        assert!(f.help.as_deref().is_some_and(str::is_ascii));
    }
    // Non-ASCII edges are named, never shown raw.
    let found = rules::check("https://example.com/مرحبا\u{60C}", &selection);
    let edge = found.iter().find(|f| f.rule.id == EDGE).unwrap();
    assert!(
        edge.message.contains("U+060C ARABIC COMMA"),
        "{}",
        edge.message
    );
    assert!(edge.message.is_ascii());
}
