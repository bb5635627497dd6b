//! Collecting incidents with their locations.

use citeproof_model::{Incident, IncidentCode, Location, Severity};

/// The incidents of one check, in the order found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Findings(pub Vec<Incident>);

impl Findings {
    pub fn new() -> Findings {
        Findings(Vec::new())
    }

    /// An incident at a JSON pointer.
    pub fn at(
        &mut self,
        code: IncidentCode,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.0
            .push(Incident::new(code, message, Location::pointer(pointer)));
    }

    /// An incident about one claim, at a pointer.
    pub fn claim(
        &mut self,
        code: IncidentCode,
        claim_id: &str,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.0.push(Incident::new(
            code,
            message,
            Location {
                pointer: Some(pointer.into()),
                claim_id: Some(claim_id.to_owned()),
                ..Location::default()
            },
        ));
    }

    pub fn push(&mut self, incident: Incident) {
        self.0.push(incident);
    }

    pub fn extend(&mut self, incidents: impl IntoIterator<Item = Incident>) {
        self.0.extend(incidents);
    }

    pub fn has_errors(&self) -> bool {
        self.0.iter().any(|i| i.severity == Severity::Error)
    }

    pub fn has(&self, code: IncidentCode) -> bool {
        self.0.iter().any(|i| i.code == code)
    }

    pub fn into_vec(self) -> Vec<Incident> {
        self.0
    }
}

/// `/a/b` with `~` and `/` escaped in the last segment (RFC 6901).
pub fn pointer(base: &str, segment: impl std::fmt::Display) -> String {
    citeproof_model::pointer::child(base, &segment.to_string())
}
