//! The one accumulator of findings and the one level rule, shared by the verifiers of every
//! spec (c2pa-rs's status tracker, with typed codes): each check pushes its incidents with the
//! conformance level they count toward, and [`Findings::finish`] decides the level achieved.
//!
//! The level rule (docs/PROFILE.md, "Conformance levels"): the level achieved is the highest
//! `n` up to the level checked such that no incident of severity error counts toward any level
//! from 1 to `n`. Warnings never lower a level. An error at level 0 (the input could not be
//! read as a document at all) leaves level 0.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Incident, IncidentCode, Severity};

/// An incident with the conformance level it counts toward.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LeveledIncident {
    /// The level the incident counts toward (1 is the lowest; 0: the input itself).
    pub level: u8,
    #[serde(flatten)]
    pub incident: Incident,
}

/// Every finding of one verification, in the order found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Findings {
    incidents: Vec<LeveledIncident>,
}

/// What [`Findings::finish`] decided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Verdict {
    /// The level achieved (0 when level 1 failed).
    pub level: u8,
    /// The level the verification required.
    pub required_level: u8,
    /// `level >= required_level`.
    pub verified: bool,
    /// Every incident, sorted by level (stable: the order found within a level).
    pub incidents: Vec<LeveledIncident>,
}

impl Findings {
    pub fn new() -> Findings {
        Findings::default()
    }

    pub fn push(&mut self, level: u8, incident: Incident) {
        self.incidents.push(LeveledIncident { level, incident });
    }

    pub fn extend(&mut self, level: u8, incidents: impl IntoIterator<Item = Incident>) {
        for incident in incidents {
            self.push(level, incident);
        }
    }

    /// Whether an error counts toward `level`.
    pub fn fails(&self, level: u8) -> bool {
        self.incidents
            .iter()
            .any(|i| i.level == level && i.incident.severity == Severity::Error)
    }

    /// Whether an incident with this code was found.
    pub fn has(&self, code: IncidentCode) -> bool {
        self.incidents.iter().any(|i| i.incident.code == code)
    }

    pub fn is_empty(&self) -> bool {
        self.incidents.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &LeveledIncident> {
        self.incidents.iter()
    }

    /// The level rule: the highest `n <= checked` with no error at any level `1..=n`, and 0
    /// when an error counts toward level 0.
    pub fn level(&self, checked: u8) -> u8 {
        if self.fails(0) {
            return 0;
        }
        (1..=checked)
            .take_while(|&n| !self.fails(n))
            .last()
            .unwrap_or(0)
    }

    /// The verdict when levels up to `checked` were checked and `required` is required (a
    /// level that was not checked is never achieved, so `checked < required` never verifies).
    pub fn finish(mut self, required: u8, checked: u8) -> Verdict {
        let level = self.level(checked);
        self.incidents.sort_by_key(|i| i.level);
        Verdict {
            level,
            required_level: required,
            verified: level >= required,
            incidents: self.incidents,
        }
    }
}

impl Verdict {
    /// The incidents without their levels.
    pub fn plain_incidents(&self) -> Vec<Incident> {
        self.incidents.iter().map(|i| i.incident.clone()).collect()
    }

    /// Whether an incident with this code was reported.
    pub fn has(&self, code: IncidentCode) -> bool {
        self.incidents.iter().any(|i| i.incident.code == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Location;

    fn error() -> Incident {
        Incident::new(IncidentCode::SchemaViolation, "e", Location::default())
    }

    fn warning() -> Incident {
        let mut i = error();
        i.severity = Severity::Warning;
        i
    }

    /// Hand-derived cases of the rule in the module docs.
    #[test]
    fn the_level_rule() {
        let mut f = Findings::new();
        assert_eq!(f.level(3), 3);
        f.push(2, warning());
        assert_eq!(f.level(3), 3, "warnings never lower a level");
        f.push(3, error());
        assert_eq!(f.level(3), 2);
        assert_eq!(f.level(1), 1, "a level not checked is not reached");
        f.push(1, error());
        assert_eq!(f.level(3), 0, "an error at level 1 fails every level above");
        let mut g = Findings::new();
        g.push(0, error());
        assert_eq!(g.level(3), 0);
    }

    #[test]
    fn finish_sorts_by_level_and_requires() {
        let mut f = Findings::new();
        f.push(3, error());
        f.push(1, warning());
        let v = f.clone().finish(3, 3);
        assert_eq!((v.level, v.verified), (2, false));
        assert_eq!(
            v.incidents.iter().map(|i| i.level).collect::<Vec<_>>(),
            [1, 3]
        );
        let v = f.clone().finish(2, 3);
        assert!(v.verified);
        // Required 3 but only 2 checked: never verified.
        assert!(!Findings::new().finish(3, 2).verified);
    }
}
