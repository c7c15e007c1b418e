//! The limits counted in the database by client or by address, over a day and an hour
//! (accounts made, reset links asked for), so that they hold whichever server is asked.

use crate::clock::{now_ms, DAY, HOUR};
use crate::error::ApiResult;
use crate::hub::Hub;
use crate::store::Tally;

/// A request counted under a key (a client's network, an address), and the most such
/// requests that key may make in a day and in an hour.
pub(crate) struct Counted {
    pub key: String,
    pub a_day: i64,
    pub an_hour: i64,
}

/// Counts a request under each of its keys, or refuses it past any key's limits: then
/// when to try again ("tomorrow", "in an hour"). The counts are read after this request
/// is in them, so that requests sent all at once cannot all pass; one refused is taken
/// back out, so that tries past the limit cost nothing later.
pub(crate) async fn count_request(
    hub: &Hub,
    tally: Tally,
    counted: &[Counted],
) -> ApiResult<Option<&'static str>> {
    let now = now_ms();
    let day = now - DAY;
    for c in counted {
        hub.store.note_request(tally, &c.key, now, day).await?;
    }
    let mut refused = None;
    for c in counted {
        if hub.store.requests(tally, &c.key, day).await? > c.a_day {
            refused = Some("tomorrow");
        } else if hub.store.requests(tally, &c.key, now - HOUR).await? > c.an_hour {
            refused = refused.or(Some("in an hour"));
        }
    }
    if refused.is_some() {
        for c in counted {
            hub.store.forget_request(tally, &c.key, now).await?;
        }
    }
    Ok(refused)
}
