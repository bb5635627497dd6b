//! The chain-of-citation envelope (ACA Level 3): one step per tool call, private inputs replaced
//! by the SHA-256 of their JCS form (ACA-L3-005, CANON-003 c).

use citeproof_model::aca::{ChainStep, StepRefs};
use citeproof_model::{ContentHash, Extensions, HttpUrl, jcs::canonicalize, sha256_bytes};
use serde_json::{Map, Value};

use super::error::{InputRefusal, SignError};

/// The inputs of one tool call, and how much of them the chain reveals.
#[derive(Debug, Clone, PartialEq)]
pub enum StepInputs {
    /// Inputs recorded as they are.
    Public(Map<String, Value>),
    /// Inputs recorded together with their hash.
    PublicHashed(Map<String, Value>),
    /// Proprietary inputs: only `inputs_hash`, the SHA-256 of their JCS form, is recorded.
    Private(Map<String, Value>),
    /// No inputs of its own: the step only consumes earlier outputs (`inputs_ref` required).
    None,
}

/// `sha256:` of the JCS form of `inputs` (CANON-003 c).
pub fn inputs_hash(inputs: &Map<String, Value>) -> ContentHash {
    sha256_bytes(&canonicalize(&Value::Object(inputs.clone())))
}

/// A step issued by a [`ChainBuilder`]: its 1-based number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StepRef(pub usize);

/// Builds the `chain` of a manifest in call order, so that every `inputs_ref` names an earlier
/// step (the graph is a DAG by construction, ACA-L3-004).
#[derive(Debug, Clone)]
pub struct ChainBuilder {
    prefix: String,
    steps: Vec<ChainStep>,
}

impl ChainBuilder {
    /// Steps get `outputs_ref` `runs/<run_id>/step/<n>`.
    pub fn new(run_id: &str) -> ChainBuilder {
        ChainBuilder {
            prefix: format!("runs/{run_id}/step/"),
            steps: Vec::new(),
        }
    }

    /// Appends a step for one tool call. `inputs_from` are earlier steps whose outputs it
    /// consumed; `sources` the URLs it read.
    pub fn step(
        &mut self,
        tool: &str,
        inputs: StepInputs,
        inputs_from: &[StepRef],
        sources: &[&str],
    ) -> Result<StepRef, SignError> {
        if tool.is_empty() || tool.chars().count() > 256 {
            return Err(InputRefusal::InvalidValue {
                what: "tool name",
                reason: "must be 1 to 256 characters".into(),
            }
            .into());
        }
        let n = self.steps.len() + 1;
        let mut refs = Vec::with_capacity(inputs_from.len());
        for r in inputs_from {
            if r.0 == 0 || r.0 >= n {
                return Err(InputRefusal::UnknownHandle {
                    what: "chain step",
                    id: r.0.to_string(),
                }
                .into());
            }
            let name = self.outputs_ref(r.0);
            if !refs.contains(&name) {
                refs.push(name);
            }
        }
        let (inputs, hash) = match inputs {
            StepInputs::Public(m) => (Some(m), None),
            StepInputs::PublicHashed(m) => {
                let h = inputs_hash(&m);
                (Some(m), Some(h))
            }
            StepInputs::Private(m) => (None, Some(inputs_hash(&m))),
            StepInputs::None => (None, None),
        };
        if inputs.is_none() && hash.is_none() && refs.is_empty() {
            return Err(InputRefusal::InvalidValue {
                what: "chain step",
                reason: "a step needs inputs, an inputs hash or earlier steps it consumed".into(),
            }
            .into());
        }
        let step = ChainStep {
            step: u32::try_from(n).map_err(|_| InputRefusal::InvalidValue {
                what: "chain",
                reason: "too many steps".into(),
            })?,
            tool: tool.to_owned(),
            inputs,
            inputs_hash: hash,
            inputs_ref: match refs.len() {
                0 => None,
                1 => refs.pop().map(StepRefs::One),
                _ => Some(StepRefs::Many(refs)),
            },
            outputs_ref: self.outputs_ref(n),
            sources: Vec::new(),
            extensions: Extensions::default(),
        };
        self.steps.push(step);
        let r = StepRef(n);
        for s in sources {
            self.add_source(r, s)?;
        }
        Ok(r)
    }

    /// Records that step `r` read `url`.
    pub fn add_source(&mut self, r: StepRef, url: &str) -> Result<(), SignError> {
        InputRefusal::check_web_url(url)?;
        let parsed = HttpUrl::parse(url).map_err(|reason| InputRefusal::InvalidUrl {
            value: url.to_owned(),
            reason,
        })?;
        let step =
            r.0.checked_sub(1)
                .and_then(|i| self.steps.get_mut(i))
                .ok_or(InputRefusal::UnknownHandle {
                    what: "chain step",
                    id: r.0.to_string(),
                })?;
        if !step.sources.iter().any(|s| s.as_str() == url) {
            step.sources.push(parsed);
        }
        Ok(())
    }

    fn outputs_ref(&self, n: usize) -> String {
        format!("{}{n}", self.prefix)
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The chain.
    pub fn build(self) -> Vec<ChainStep> {
        self.steps
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn private_inputs_are_hashed() {
        let mut c = ChainBuilder::new("r1");
        let mut m = Map::new();
        m.insert("q".into(), json!("programmatic geo"));
        let s1 = c
            .step(
                "search",
                StepInputs::Private(m),
                &[],
                &["https://example.com/a"],
            )
            .unwrap();
        let s2 = c.step("summarize", StepInputs::None, &[s1], &[]).unwrap();
        assert!(c.step("x", StepInputs::None, &[], &[]).is_err());
        assert!(c.step("x", StepInputs::None, &[StepRef(3)], &[]).is_err());
        let _ = s2;
        let chain = c.build();
        // Hand derivation: JCS of {"q":"programmatic geo"} is the 22 bytes
        // {"q":"programmatic geo"}; its SHA-256 (python3 hashlib) is below.
        assert_eq!(
            chain[0].inputs_hash.map(|h| h.to_string()).as_deref(),
            Some("sha256:c6e6cd75d432c9ff6173faf4f16626df005ada181f08ddfd0ad114a870875280")
        );
        assert!(chain[0].inputs.is_none());
        assert_eq!(
            chain[1].inputs_ref,
            Some(StepRefs::One("runs/r1/step/1".into()))
        );
        assert_eq!(chain[1].outputs_ref, "runs/r1/step/2");
    }
}
