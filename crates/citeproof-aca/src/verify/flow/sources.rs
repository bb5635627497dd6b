//! Steps 3 and 4: re-fetched sources, excerpts and the support check (ACA-L2-013 to -020,
//! ACA-L2-023).

use std::borrow::Cow;

use crate::verify::url::EqualityKeys;

use super::*;

/// A source fetched once for every claim that cites it: its response, its SHA-256 and that
/// hash as the report writes it.
struct Fetched {
    response: FetchedResponse,
    hash: ContentHash,
    hex: String,
}

/// Steps 3 and 4: re-fetch sources, compare hashes, check excerpts and support.
pub(super) fn check_sources(run: &mut Run<'_>, manifests: &mut [ManifestState]) {
    // Each distinct source is fetched and hashed once, however many claims cite it; each
    // distinct URL string is parsed once for its equality key.
    let mut bodies: BTreeMap<String, Option<Fetched>> = BTreeMap::new();
    let mut keys = EqualityKeys::default();
    for m in manifests.iter() {
        let Some(f) = &m.findings else { continue };
        for c in &f.manifest.claims {
            for s in &c.sources {
                let Some(u) = &s.url else { continue };
                let key = keys.key(u).to_owned();
                if bodies.contains_key(&key) {
                    continue;
                }
                let got = match run.fetch_ok(u, IncidentCode::AcaSourceFetchFailed, "source") {
                    Ok(r) => {
                        // A JSON snapshot hashed the body while decoding it.
                        let hash = run
                            .fetcher
                            .known_sha256(&r.body)
                            .unwrap_or_else(|| sha256_bytes(&r.body));
                        Some(Fetched {
                            hex: hash.to_string(),
                            response: r,
                            hash,
                        })
                    }
                    Err(incidents) => {
                        run.extend(2, incidents);
                        None
                    }
                };
                bodies.insert(key, got);
            }
        }
    }
    for m in manifests.iter_mut() {
        let Some(f) = &m.findings else { continue };
        let mut normalized = std::mem::take(&mut m.normalized);
        for (ci, c) in f.manifest.claims.iter().enumerate() {
            let mut excerpts: Vec<Cow<'_, str>> = Vec::new();
            let mut all = !c.sources.is_empty();
            let mut source_reports = Vec::new();
            for s in &c.sources {
                let Some(u) = &s.url else {
                    all = false;
                    continue;
                };
                let body = bodies.get(keys.key(u)).and_then(Option::as_ref);
                let (excerpt, verdict) = match body {
                    None => (None, Cow::Borrowed("not fetched")),
                    Some(b) => check_one_source(
                        run,
                        &m.url,
                        c.claim_id.as_deref(),
                        s,
                        &b.response.body,
                        b.hash,
                    ),
                };
                source_reports.push(SourceReport {
                    url: u.clone(),
                    verdict,
                    locator: s
                        .excerpt_offset
                        .map(|(start, end)| format!("bytes [{start}, {end})")),
                    // The hex of each distinct body's hash is written once; a declared hash
                    // that matches it is the same text.
                    declared_hash: s.hash.map(|h| match body {
                        Some(b) if b.hash == h => b.hex.clone(),
                        _ => h.to_string(),
                    }),
                    computed_hash: body.map(|b| b.hex.clone()),
                    excerpt: excerpt.as_deref().map(str::to_owned),
                    failed: Vec::new(),
                    pointer: s.pointer.clone(),
                });
                match excerpt {
                    Some(e) => excerpts.push(e),
                    None => all = false,
                }
            }
            let mut supported = None;
            if all && let Some(text) = &c.text {
                let loc = Location {
                    url: Some(m.url.clone()),
                    claim_id: c.claim_id.clone(),
                    pointer: Some(format!("{}/text", c.pointer)),
                    ..Location::default()
                };
                let claim = match normalized.get_mut(ci).and_then(Option::take) {
                    Some(n) => Analyzed::from_normalized(text, n),
                    None => Analyzed::new(text),
                };
                supported = judge_claim(run, &claim, &c.sources, &excerpts, &loc);
            }
            if let Some(r) = m.report.claims.get_mut(ci) {
                r.sources = source_reports;
                r.supported = supported;
            }
        }
    }
}

/// ACA-L2-018 to ACA-L2-020 for one claim whose every source yielded an excerpt.
pub(super) fn judge_claim(
    run: &mut Run<'_>,
    claim: &Analyzed<'_>,
    sources: &[CheckedSource],
    excerpts: &[Cow<'_, str>],
    loc: &Location,
) -> Option<bool> {
    // ACA-L2-023: the support check's work is bounded whatever the manifest says.
    let bytes: u64 = excerpts
        .iter()
        .map(|e| u64::try_from(e.len()).unwrap_or(u64::MAX))
        .sum();
    run.excerpt_bytes = run.excerpt_bytes.saturating_add(bytes);
    if run.excerpt_bytes > run.opts.max_excerpt_bytes {
        if !run.budget_reported {
            run.budget_reported = true;
            run.push(
                2,
                Incident::new(
                    IncidentCode::AcaBudgetExhausted,
                    format!(
                        "the excerpts to check exceed {} bytes in all; the remaining claims are not checked",
                        run.opts.max_excerpt_bytes
                    ),
                    loc.clone(),
                ),
            );
        }
        return None;
    }
    let refs: Vec<ExcerptRef<'_>> = sources
        .iter()
        .zip(excerpts)
        .map(|(s, e)| {
            let mut location = loc.clone();
            location.pointer = Some(s.pointer.clone());
            ExcerptRef {
                text: e.as_ref(),
                source_url: s.url.as_deref().unwrap_or(""),
                location,
            }
        })
        .collect();
    let judges: Vec<&dyn SupportJudge> = run.opts.extra_judges.iter().map(|j| &**j).collect();
    let assessment = assess(claim, &refs, loc, &*run.opts.judge, &judges);
    run.extend(2, assessment.incidents);
    assessment.supported
}

/// ACA-L2-014 to ACA-L2-017 for one claim source: returns the excerpt (when one is available
/// for the support check) and a verdict for the report.
pub(super) fn check_one_source<'b>(
    run: &mut Run<'_>,
    manifest_url: &str,
    claim_id: Option<&str>,
    s: &CheckedSource,
    body: &'b [u8],
    actual: ContentHash,
) -> (Option<Cow<'b, str>>, Cow<'static, str>) {
    let ctx = Ctx {
        url: Some(manifest_url.to_owned()),
    };
    let at = SourceAt {
        ctx: &ctx,
        source: s,
        claim_id,
    };
    let Some(hash) = s.hash else {
        return (None, "no usable hash".into());
    };
    if actual != hash {
        at.push(
            run,
            IncidentCode::AcaSourceHashMismatch,
            "hash",
            format!(
                "the source `{}` changed: its SHA-256 is {actual}, the manifest recorded {hash}",
                s.url.as_deref().unwrap_or("")
            ),
        );
        return diagnose_changed_source(run, &at, body);
    }
    check_excerpt(run, &at, body)
}

/// ACA-L2-015: where the source changed, whether the excerpt is still there, exactly once.
fn diagnose_changed_source<'b>(
    run: &mut Run<'_>,
    at: &SourceAt<'_>,
    body: &'b [u8],
) -> (Option<Cow<'b, str>>, Cow<'static, str>) {
    let s = at.source;
    let (Some(excerpt_hash), Some((start, end))) = (s.excerpt_hash, s.excerpt_offset) else {
        return (
            None,
            "source changed (no excerpt_hash to locate the excerpt)".into(),
        );
    };
    let found = match find_intact(body, start, end, excerpt_hash, search_allowance(run)) {
        Ok(found) => found,
        Err(SearchOverBudget { cost }) => {
            report_search_budget(run, at.ctx, &s.pointer, at.claim_id, cost);
            return (None, "source changed, excerpt not searched (budget)".into());
        }
    };
    match found {
        Some((a, b, moved)) => {
            let text = String::from_utf8_lossy(&body[a..b]);
            at.push(
                run,
                IncidentCode::AcaExcerptIntact,
                "excerpt_hash",
                if moved {
                    format!("the source changed but the excerpt is intact at bytes [{a}, {b})")
                } else {
                    "the source changed but the excerpt is intact at its offsets".to_owned()
                },
            );
            (Some(text), "source changed, excerpt intact".into())
        }
        None => {
            at.push(
                run,
                IncidentCode::AcaExcerptChanged,
                "excerpt_hash",
                "the source changed and the excerpt is no longer found exactly once".into(),
            );
            (None, "source changed, excerpt changed".into())
        }
    }
}

/// ACA-L2-016, ACA-L2-017: the source is unchanged; its excerpt's offsets, UTF-8 and hash.
fn check_excerpt<'b>(
    run: &mut Run<'_>,
    at: &SourceAt<'_>,
    body: &'b [u8],
) -> (Option<Cow<'b, str>>, Cow<'static, str>) {
    let s = at.source;
    let Some((start, end)) = s.excerpt_offset else {
        return (None, "hash ok, no usable excerpt_offset".into());
    };
    let len = body.len() as u64;
    if end > len {
        at.push(
            run,
            IncidentCode::AcaOffsetOutOfRange,
            "excerpt_offset",
            format!("excerpt_offset end {end} is beyond the body length {len}"),
        );
        return (None, "hash ok, offsets out of range".into());
    }
    let (a, b) = (start as usize, end as usize);
    let Ok(text) = std::str::from_utf8(&body[a..b]) else {
        at.push(
            run,
            IncidentCode::AcaExcerptNotUtf8,
            "excerpt_offset",
            format!("the bytes [{start}, {end}) are not well-formed UTF-8"),
        );
        return (None, "hash ok, excerpt not UTF-8".into());
    };
    if let Some(eh) = s.excerpt_hash {
        let got = aef_text_hash(text.as_bytes()).ok();
        if got != Some(eh) {
            at.push(
                run,
                IncidentCode::AcaExcerptHashMismatch,
                "excerpt_hash",
                format!(
                    "excerpt_hash is {eh} but the excerpt at [{start}, {end}) hashes to {}",
                    got.map(|h| h.to_string()).unwrap_or_default()
                ),
            );
            return (Some(text.into()), "hash ok, excerpt_hash mismatch".into());
        }
    }
    (Some(text.into()), "hash ok, excerpt ok".into())
}

/// Where the incidents of one claim source of a manifest are located.
struct SourceAt<'a> {
    ctx: &'a Ctx,
    source: &'a CheckedSource,
    claim_id: Option<&'a str>,
}

impl SourceAt<'_> {
    /// A Level 2 incident at `member` of the source.
    fn push(&self, run: &mut Run<'_>, code: IncidentCode, member: &str, message: String) {
        let pointer = format!("{}/{member}", self.source.pointer);
        run.push(2, self.ctx.at_claim(code, &pointer, self.claim_id, message));
    }
}

/// A window search that would hash more than what is left of the search budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct SearchOverBudget {
    /// Bytes the search would have hashed.
    pub cost: u64,
}

/// What is left of the response's search budget; taken by [`find_intact`] through `charge`.
pub(super) struct SearchAllowance<'a> {
    spent: &'a mut u64,
    max: u64,
}

fn search_allowance<'a>(run: &'a mut Run<'_>) -> SearchAllowance<'a> {
    SearchAllowance {
        max: run.opts.max_search_bytes,
        spent: &mut run.search_bytes,
    }
}

impl SearchAllowance<'_> {
    fn charge(&mut self, cost: u64) -> Result<(), SearchOverBudget> {
        let total = self.spent.saturating_add(cost);
        if total > self.max {
            return Err(SearchOverBudget { cost });
        }
        *self.spent = total;
        Ok(())
    }
}

fn report_search_budget(
    run: &mut Run<'_>,
    ctx: &Ctx,
    pointer: &str,
    claim_id: Option<&str>,
    cost: u64,
) {
    if run.search_budget_reported {
        return;
    }
    run.search_budget_reported = true;
    let max = run.opts.max_search_bytes;
    run.push(
        2,
        ctx.at_claim(
            IncidentCode::AcaBudgetExhausted,
            &format!("{pointer}/excerpt_hash"),
            claim_id,
            format!(
                "locating this excerpt in the changed source would hash {cost} bytes, past the {max}-byte budget of excerpt searches for one response; this and later excerpts of changed sources are not searched"
            ),
        ),
    );
}

/// ACA-L2-015 (1) and (2): where the excerpt with `excerpt_hash` is in a changed body.
/// Returns `(start, end, moved)`. The window search (2) is charged to the response's search
/// budget (ACA-L2-023) before it starts: width times number of windows.
pub(super) fn find_intact(
    body: &[u8],
    start: u64,
    end: u64,
    excerpt_hash: ContentHash,
    mut allowance: SearchAllowance<'_>,
) -> Result<Option<(usize, usize, bool)>, SearchOverBudget> {
    let len = body.len() as u64;
    if end <= len {
        let (a, b) = (start as usize, end as usize);
        if std::str::from_utf8(&body[a..b]).is_ok()
            && aef_text_hash(&body[a..b]).ok() == Some(excerpt_hash)
        {
            return Ok(Some((a, b, false)));
        }
    }
    let width = end - start;
    if width > MAX_SEARCH_EXCERPT || body.len() > MAX_SEARCH_BODY || width > len {
        return Ok(None);
    }
    allowance.charge(width.saturating_mul(len - width + 1))?;
    let w = width as usize;
    let mut found = None;
    for a in 0..=(body.len() - w) {
        let window = &body[a..a + w];
        // A window that starts or ends inside a UTF-8 sequence is not well-formed.
        if std::str::from_utf8(window).is_err() {
            continue;
        }
        if aef_text_hash(window).ok() == Some(excerpt_hash) {
            if found.is_some() {
                return Ok(None); // found twice: no longer identifies one passage
            }
            found = Some((a, a + w, true));
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand derivation: the excerpt `abc` recorded at [0, 3) of a body that is now `--abc--`
    /// (7 bytes) is not at its offsets; the window search hashes 7 - 3 + 1 = 5 windows of 3
    /// bytes, 15 bytes, and finds it once at [2, 5).
    #[test]
    fn the_window_search_is_charged_before_it_runs() {
        let hash = aef_text_hash(b"abc").unwrap();
        // The excerpt recorded at [0, 3) of `body`, searched with `spent` of `max` used.
        let search = |body: &[u8], spent: &mut u64, max| {
            find_intact(body, 0, 3, hash, SearchAllowance { spent, max })
        };
        let body = b"--abc--";
        let mut spent = 0;
        assert_eq!(search(body, &mut spent, 15), Ok(Some((2, 5, true))));
        assert_eq!(spent, 15);
        let mut spent = 1;
        let over = search(body, &mut spent, 15);
        assert_eq!(over, Err(SearchOverBudget { cost: 15 }));
        assert_eq!(spent, 1, "a refused search spends nothing");
        // Intact at its offsets: no search, nothing charged.
        let mut spent = 0;
        assert_eq!(search(b"abc--", &mut spent, 0), Ok(Some((0, 3, false))));
        assert_eq!(spent, 0);
    }
}
