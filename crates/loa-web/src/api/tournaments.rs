//! Tournaments: made by a signed-in player, joined and left, started by their creator or
//! at their time; their pairings, standings and crosstable, live over a socket, and
//! their games and standings to download.

use super::{ApiQuery, Body};
use crate::auth::Viewer;
use crate::clock::{now_ms, TimeControl, DAY, MINUTE};
use crate::director;
use crate::error::{ApiError, ApiResult};
use crate::hub::Hub;
use crate::ids::random_name;
use crate::pairing::TermsRequest;
use crate::store::{BoardRow, EntrantRow, TournamentRow};
use crate::tournament::Format;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// The most rounds a Swiss may have.
const MAX_SWISS_ROUNDS: i64 = 30;
/// The most seasons a league may have.
const MAX_SEASONS: i64 = 100;
/// An arena's length when none is given.
const DEFAULT_ARENA_MINUTES: i64 = 60;
/// The longest arena: a day.
const MAX_ARENA_MINUTES: i64 = 24 * 60;
/// How far ahead a start may be set: a year.
const MAX_START_AHEAD_MS: i64 = 366 * DAY;

/// How far in the past a start may be given (a client's clock a little behind, a form
/// sent a moment late); before that it is a mistake, not "at once".
const MAX_START_BEHIND_MS: i64 = 10 * MINUTE;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTournament {
    pub name: String,
    pub format: String,
    #[serde(default)]
    pub rounds: Option<i64>,
    /// An arena's length in minutes.
    #[serde(default)]
    pub minutes: Option<i64>,
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub rules: Option<String>,
    pub clock: TimeControl,
    #[serde(default)]
    pub rated: bool,
    /// When it starts by itself, in ms since the epoch; without it, when its creator
    /// starts it.
    #[serde(default)]
    pub starts_at: Option<i64>,
}

/// A pairing: a game (`game`, `black`, `white`, `result` once over) or a bye.
#[derive(Serialize)]
pub struct PairingView {
    pub round: i64,
    pub board: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2` once the game is over; `null` while it is played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Option<String>>,
    /// The loser never moved.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub forfeit: bool,
    /// The player of a bye, and what it scores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bye: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<f64>,
}

#[derive(Serialize)]
pub struct StandingView {
    pub rank: usize,
    pub name: String,
    /// A league's division this season (1 the top); ranks run through the divisions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub division: Option<i64>,
    pub points: f64,
    pub sonneborn_berger: f64,
    pub buchholz: f64,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub byes: u32,
    pub rating: i64,
    /// False once withdrawn.
    pub active: bool,
}

#[derive(Serialize)]
pub struct TournamentView {
    pub id: String,
    pub name: String,
    pub format: String,
    pub rounds: i64,
    /// An arena's length.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minutes: Option<i64>,
    /// When an arena stops pairing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ends_at: Option<i64>,
    pub variant: String,
    pub rules: String,
    pub clock: serde_json::Value,
    pub rated: bool,
    pub creator: String,
    pub status: String,
    pub round: i64,
    pub starts_at: Option<i64>,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    pub championship: Option<String>,
    pub players: usize,
    pub pairings: Vec<PairingView>,
    pub standings: Vec<StandingView>,
    /// A league's earlier seasons, the first first, each with its final standings
    /// (`division` that season's).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub seasons: Vec<SeasonView>,
}

#[derive(Serialize)]
pub struct SeasonView {
    pub season: i64,
    pub standings: Vec<StandingView>,
}

fn result_text(result: Option<&str>) -> Option<String> {
    let text = match result? {
        "black" => "1-0",
        "white" => "0-1",
        _ => "1/2-1/2",
    };
    Some(text.to_string())
}

/// A tournament as the API shows it.
pub async fn view_of(hub: &Hub, t: TournamentRow) -> ApiResult<TournamentView> {
    let entrants = hub.store.entrants(&t.id).await?;
    let boards = hub.store.boards(&t.id).await?;
    let names: HashMap<i64, &EntrantRow> = entrants.iter().map(|e| (e.account, e)).collect();
    let name = |id: i64| names.get(&id).map(|e| e.name.clone());
    let pairings = boards
        .iter()
        .map(|b: &BoardRow| match b.white {
            Some(white) => PairingView {
                round: b.round,
                board: b.board,
                game: b.game_id.clone(),
                black: name(b.black),
                white: name(white),
                result: Some(result_text(b.result.as_deref())),
                forfeit: b.forfeit,
                bye: None,
                points: None,
            },
            None => PairingView {
                round: b.round,
                board: b.board,
                game: None,
                black: None,
                white: None,
                result: None,
                forfeit: false,
                bye: name(b.black),
                points: b.bye_points,
            },
        })
        .collect();
    let standing_views = |table: director::Table| -> Vec<StandingView> {
        table
            .into_iter()
            .enumerate()
            .filter_map(|(i, (division, s))| {
                let entrant = names.get(&s.id)?;
                Some(StandingView {
                    rank: i + 1,
                    name: entrant.name.clone(),
                    division,
                    points: s.points,
                    sonneborn_berger: s.sonneborn_berger,
                    buchholz: s.buchholz,
                    wins: s.wins,
                    draws: s.draws,
                    losses: s.losses,
                    byes: s.byes,
                    rating: entrant.rating.round() as i64,
                    active: entrant.active,
                })
            })
            .collect()
    };
    let standings = standing_views(director::standings_of(&t, &entrants, &boards));
    let seasons = director::earlier_seasons(&t, &entrants, &boards)
        .into_iter()
        .map(|(season, table)| SeasonView {
            season,
            standings: standing_views(table),
        })
        .collect();
    let creator = hub
        .store
        .account(t.creator)
        .await?
        .map(|a| a.name)
        .unwrap_or_default();
    Ok(TournamentView {
        clock: serde_json::from_str(&t.clock).unwrap_or_default(),
        minutes: t.minutes,
        ends_at: director::arena_ends_at(&t),
        id: t.id,
        name: t.name,
        format: t.format,
        rounds: t.rounds,
        variant: t.variant,
        rules: t.rules,
        rated: t.rated,
        creator,
        status: t.status,
        round: t.round,
        starts_at: t.starts_at,
        started_at: t.started_at,
        finished_at: t.finished_at,
        championship: t.championship,
        players: entrants.len(),
        pairings,
        standings,
        seasons,
    })
}

async fn find(hub: &Hub, id: &str) -> ApiResult<TournamentRow> {
    let found = if id.len() <= 64 {
        hub.store.tournament(id).await?
    } else {
        None
    };
    found.ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such tournament"))
}

/// A name as typed: trimmed, 1 to 60 characters, no control characters.
fn tournament_name(text: &str) -> ApiResult<String> {
    let name = text.trim();
    let refused = if name.is_empty() {
        "a tournament needs a name"
    } else if name.chars().count() > 60 {
        "a tournament's name is at most 60 characters"
    } else if name.chars().any(char::is_control) {
        "a tournament's name has no control characters (line breaks, tabs)"
    } else {
        return Ok(name.to_string());
    };
    Err(ApiError::bad_request(refused))
}

/// The most tournaments an account may have made in a week that are open or running.
const MAX_UNFINISHED_MADE: i64 = 10;

pub async fn create_tournament(
    State(hub): State<Arc<Hub>>,
    viewer: Viewer,
    Body(request): Body<NewTournament>,
) -> ApiResult<(StatusCode, Json<TournamentView>)> {
    let creator = viewer.required()?;
    // One person cannot bury the list of tournaments under their own. (Counted over a
    // week: a tournament nobody joins stays open, and must not bar its maker for good.)
    let week_ago = now_ms() - 7 * DAY;
    let made = hub
        .store
        .unfinished_tournaments_of(creator.id, week_ago)
        .await?;
    if made >= MAX_UNFINISHED_MADE {
        return Err(too_many_made());
    }
    let name = tournament_name(&request.name)?;
    let format = Format::parse(&request.format).ok_or_else(|| {
        ApiError::bad_request(format!(
            "format is swiss, round-robin, arena or league, not '{}'",
            loa_core::excerpt(&request.format)
        ))
    })?;
    let rounds = match (format, request.rounds) {
        (Format::Swiss, Some(n)) if (1..=MAX_SWISS_ROUNDS).contains(&n) => n,
        (Format::Swiss, _) => {
            return Err(ApiError::bad_request(format!(
                "a Swiss has 1 to {MAX_SWISS_ROUNDS} rounds"
            )))
        }
        // A round robin's rounds are its field's: 2 asks for a double one (each pair
        // meets twice), any other number a single one.
        (Format::RoundRobin, Some(2)) => 2,
        (Format::RoundRobin, Some(n)) if n < 0 => {
            return Err(ApiError::bad_request(
                "rounds is a number of rounds, not negative",
            ))
        }
        (Format::RoundRobin, _) => 1,
        (Format::League, None) => 1,
        (Format::League, Some(n)) if (1..=MAX_SEASONS).contains(&n) => n,
        (Format::League, Some(_)) => {
            return Err(ApiError::bad_request(format!(
                "a league has 1 to {MAX_SEASONS} seasons"
            )))
        }
        (Format::Arena, _) => 0,
    };
    let minutes = match (format, request.minutes) {
        (Format::Arena, None) => Some(DEFAULT_ARENA_MINUTES),
        (Format::Arena, Some(m)) if (1..=MAX_ARENA_MINUTES).contains(&m) => Some(m),
        (Format::Arena, _) => {
            return Err(ApiError::bad_request(format!(
                "an arena lasts 1 to {MAX_ARENA_MINUTES} minutes"
            )))
        }
        (_, None) => None,
        (_, Some(_)) => {
            return Err(ApiError::bad_request("only an arena has minutes"));
        }
    };
    let terms = TermsRequest {
        variant: request.variant.clone(),
        rules: request.rules.clone(),
        clock: request.clock,
        rated: request.rated,
        color: None,
    }
    .check()
    .map_err(ApiError::bad_request)?;
    let now = now_ms();
    if let Some(at) = request.starts_at {
        if at > now.saturating_add(MAX_START_AHEAD_MS) {
            return Err(ApiError::bad_request(
                "starts_at is at most a year ahead (ms since 1970)",
            ));
        }
        if at < now.saturating_sub(MAX_START_BEHIND_MS) {
            return Err(ApiError::bad_request(
                "starts_at is in the past: give a later time (ms since 1970), or none and \
                 start it yourself",
            ));
        }
    }
    let row = TournamentRow {
        id: random_name(),
        name,
        format: format.name().to_string(),
        rounds,
        minutes,
        variant: terms.variant.name().to_string(),
        rules: terms.rules.name().to_string(),
        clock: serde_json::to_string(&terms.clock).map_err(ApiError::internal)?,
        rated: terms.rated,
        creator: creator.id,
        status: "open".into(),
        round: 0,
        starts_at: request.starts_at,
        started_at: None,
        finished_at: None,
        created_at: now,
        championship: None,
    };
    // Counted again as it is made: tournaments made at once cannot all take the last place.
    if !(hub.store)
        .create_tournament(&row, week_ago, MAX_UNFINISHED_MADE)
        .await?
    {
        return Err(too_many_made());
    }
    Ok((StatusCode::CREATED, Json(view_of(&hub, row).await?)))
}

fn too_many_made() -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        format!("you made {MAX_UNFINISHED_MADE} tournaments this week that are not finished"),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentsQuery {
    #[serde(default)]
    pub status: Option<String>,
}

/// Tournaments running, open, then finished (the latest first).
pub async fn list_tournaments(
    State(hub): State<Arc<Hub>>,
    ApiQuery(query): ApiQuery<TournamentsQuery>,
) -> ApiResult<Json<Vec<TournamentView>>> {
    if let Some(status) = &query.status {
        if !["open", "running", "finished"].contains(&status.as_str()) {
            return Err(ApiError::bad_request("status is open, running or finished"));
        }
    }
    let rows = hub
        .store
        .tournaments(query.status.as_deref(), super::MAX_LIST)
        .await?;
    let mut views = Vec::with_capacity(rows.len());
    for row in rows {
        let mut view = view_of(&hub, row).await?;
        // The list is a summary: a tournament's own address has its boards.
        view.pairings.clear();
        view.standings.truncate(3);
        views.push(view);
    }
    Ok(Json(views))
}

pub async fn get_tournament(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> ApiResult<Json<TournamentView>> {
    let t = find(&hub, &id).await?;
    Ok(Json(view_of(&hub, t).await?))
}

pub async fn join_tournament(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> ApiResult<Json<TournamentView>> {
    let account = viewer.required()?;
    let t = find(&hub, &id).await?;
    // A Swiss pairs a late joiner from its next round, an arena at once, a league from
    // its next season; a round robin's table is fixed at its start.
    let late_join_allowed = t.status == "running" && t.format != Format::RoundRobin.name();
    if t.status != "open" && !late_join_allowed {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("the tournament is {}: it takes no more players", t.status),
        ));
    }
    if t.status == "running" && t.format == Format::Swiss.name() {
        let boards = hub.store.boards(&t.id).await?;
        if director::forfeits_lost(&boards, account.id) >= director::SWISS_FORFEITS {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "you were withdrawn after two games lost without a move: you cannot join again",
            ));
        }
    }
    let rating = director::seed_rating(&hub, &t, account.id).await?;
    hub.store
        .join_tournament(&t.id, account.id, rating, now_ms())
        .await?;
    hub.tournament_changed(&t.id);
    Ok(Json(view_of(&hub, t).await?))
}

pub async fn withdraw_from_tournament(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> ApiResult<Json<TournamentView>> {
    let account = viewer.required()?;
    let t = find(&hub, &id).await?;
    if t.status == "finished" {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "the tournament is over",
        ));
    }
    let withdrawn = hub
        .store
        .withdraw_from_tournament(&t.id, account.id, t.status == "running")
        .await?;
    if !withdrawn {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "you are not playing in this tournament",
        ));
    }
    // A round robin's games left to a withdrawn player are forfeits: the one they are
    // playing too, which their opponent would otherwise wait out on the clock.
    if t.status == "running" && t.format == Format::RoundRobin.name() {
        director::resign_games_in_progress(&hub, &t, account.id).await?;
    }
    hub.tournament_changed(&t.id);
    Ok(Json(view_of(&hub, t).await?))
}

pub async fn start_tournament(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> ApiResult<Json<TournamentView>> {
    let account = viewer.required()?;
    let t = find(&hub, &id).await?;
    if t.creator != account.id {
        return Err(ApiError::forbidden(
            "only the tournament's creator starts it early",
        ));
    }
    director::start(&hub, &t.id).await?;
    let t = find(&hub, &id).await?;
    Ok(Json(view_of(&hub, t).await?))
}

/// `DELETE /api/tournaments/{id}`: its creator calls off a tournament not yet started.
pub async fn cancel_tournament(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> ApiResult<StatusCode> {
    let account = viewer.required()?;
    let t = find(&hub, &id).await?;
    if t.championship.is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "a championship's edition is not cancelled: the site makes them",
        ));
    }
    if t.creator != account.id {
        return Err(ApiError::forbidden(
            "only the tournament's creator cancels it",
        ));
    }
    if !hub.store.cancel_tournament(&t.id).await? {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "the tournament has started: it is played to its end",
        ));
    }
    hub.tournament_changed(&t.id);
    Ok(StatusCode::NO_CONTENT)
}

/// Every game of the tournament, as one PGN file, round by round.
pub async fn tournament_pgn(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let t = find(&hub, &id).await?;
    let mut text = String::new();
    for b in hub.store.boards(&t.id).await? {
        let Some(game) = &b.game_id else { continue };
        let stored = hub.store.load(game).await.ok().flatten();
        if let Some(Ok(live)) = stored.map(crate::game::LiveGame::restore) {
            let mut record = super::games::record_of(&live);
            record.event = Some(t.name.clone());
            record.extra.push(("Round".into(), b.round.to_string()));
            text.push_str(&record.to_pgn());
            text.push('\n');
        }
    }
    Ok(download(text, "application/x-chess-pgn", &t.id, "pgn"))
}

/// The standings as CSV, best first.
pub async fn tournament_csv(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let t = find(&hub, &id).await?;
    let view = view_of(&hub, t).await?;
    let mut text = String::from(
        "rank,name,points,sonneborn_berger,buchholz,wins,draws,losses,byes,rating,active\n",
    );
    for s in &view.standings {
        // Names are letters, digits, `_` and `-`: nothing to quote.
        text.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{}\n",
            s.rank,
            s.name,
            s.points,
            s.sonneborn_berger,
            s.buchholz,
            s.wins,
            s.draws,
            s.losses,
            s.byes,
            s.rating,
            s.active
        ));
    }
    Ok(download(text, "text/csv; charset=utf-8", &view.id, "csv"))
}

fn download(text: String, kind: &str, id: &str, extension: &str) -> Response {
    let disposition = format!("attachment; filename=\"loa-tournament-{id}.{extension}\"");
    (
        [
            (header::CONTENT_TYPE, kind.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::tournament_name;

    #[test]
    fn a_tournament_name_is_trimmed_and_refused_with_its_reason() {
        assert_eq!(tournament_name("  Club Cup ").unwrap(), "Club Cup");
        assert_eq!(tournament_name(&"é".repeat(60)).unwrap(), "é".repeat(60));
        for (name, reason) in [
            ("", "a tournament needs a name"),
            ("   ", "a tournament needs a name"),
            (
                &"x".repeat(61),
                "a tournament's name is at most 60 characters",
            ),
            (
                "Cup\n2",
                "a tournament's name has no control characters (line breaks, tabs)",
            ),
        ] {
            let refused = tournament_name(name).unwrap_err();
            assert_eq!(
                (refused.status.as_u16(), refused.message.as_str()),
                (400, reason),
                "{name:?}"
            );
        }
    }
}
