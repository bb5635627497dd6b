//! URL grammar, equality and origins (profile "Definitions"), from [`citeproof_model::weburl`].

pub use citeproof_model::weburl::{
    MAX_WEB_URL_BYTES, equality_key, is_web_url, origin_of, urls_equal, web_url_problem,
};
