// @ts-check
// The API's JSON as the page reads it (docs/web.md): types only, for the checker.

/**
 * A move as the server describes it: its text and its squares.
 * @typedef {object} MoveView
 * @property {string} text `b1-d3`, `d1xa4`, `pass`, `a6-c6@e5`
 * @property {string} [from]
 * @property {string} [to]
 * @property {string} [drop] where a Parachute piece is placed
 */

/**
 * @typedef {object} PieceView
 * @property {string} square
 * @property {'black' | 'white'} color
 * @property {number} seat the seat that moves it (AmbiLOA: 0 for `B`/`W`, 1 for `b`/`w`)
 * @property {number} [number] Fields of Action
 */

/**
 * How a game or a position ended.
 * @typedef {object} OutcomeView
 * @property {string} result `1-0`, `0-1` or `1/2-1/2`
 * @property {'black' | 'white'} [winner] absent for a draw
 * @property {string} reason
 */

/**
 * A position as the page draws it.
 * @typedef {object} PositionView
 * @property {string} position the position text
 * @property {string} variant
 * @property {number} size squares a side
 * @property {'black' | 'white'} to_move
 * @property {number} seat the seat to move (AmbiLOA's kinds): 0 or 1
 * @property {PieceView[]} pieces
 * @property {[number, number]} [reserves] Black's and White's (Parachute)
 * @property {MoveView[]} moves the legal moves; empty once the game is over
 * @property {OutcomeView} [outcome]
 */

/**
 * `POST /api/position`: the last position of a line, and the text of each on the way.
 * @typedef {PositionView & { line: string[], played: string[] }} PositionAnswer
 */

/**
 * @typedef {object} Strength
 * @property {number} [level]
 * @property {number} [movetime_ms]
 */

/** @typedef {'human' | { engine: Strength }} Player */
/**
 * One player, or one for each of a side's two seats (AmbiLOA's partnership game).
 * @typedef {Player | [Player, Player]} SidePlayers
 */
/** @typedef {{ black: SidePlayers, white: SidePlayers }} Lineup */

/**
 * A correspondence clock gives `days` to each move; or, with `bank_days`, it is a time
 * bank: each side starts with `bank_days`, and each move adds `days`, never above it.
 * @typedef {{ kind: 'live', initial_s: number, increment_s: number }
 *   | { kind: 'correspondence', days: number, bank_days?: number }} TimeControl
 */

/**
 * @typedef {object} ClockView
 * @property {TimeControl} control
 * @property {number} black_ms
 * @property {number} white_ms
 * @property {'black' | 'white' | null} running the side whose time runs
 * @property {number} [resumes_at] when the side to move's time runs again, while it
 *   stands still for their vacation (`running` is null meanwhile)
 * @property {([number, number] | null)[]} move_clocks the clocks after each move
 */

/**
 * A game as `GET /api/games/{id}` and its socket show it.
 * @typedef {object} GameView
 * @property {string} id
 * @property {string} variant
 * @property {string} rules
 * @property {boolean} online
 * @property {Lineup} players
 * @property {[string | null, string | null]} names
 * @property {string} start the start's position text
 * @property {string[]} moves
 * @property {string[]} positions the position text after each move, the start first
 * @property {string[]} movers the seat that made each move
 * @property {number} ply
 * @property {PositionView} position
 * @property {MoveView | null} last_move
 * @property {string | null} to_move_slot the seat whose turn it is, while the game goes on
 * @property {ClockView | null} clock
 * @property {boolean} started
 * @property {number} [first_move_by] when the game ends unless the side to move makes its first move
 * @property {'aborted' | 'forfeit'} [first_move_missed] how it ends then: called off, or (a tournament's game) lost by the side to move
 * @property {string[]} waiting_for the seats of an online game still to be taken
 * @property {OutcomeView | null} result
 * @property {'black' | 'white' | null} draw_offer
 * @property {'black' | 'white' | null} takeback_offer
 * @property {string | null} rematch the rematch's id
 * @property {boolean} rated whether the game counts for the players' ratings
 * @property {[number, number] | null} rating_changes Black's and White's, once a rated game ended
 * @property {ChatLine[]} [chat] what the players said, oldest first
 * @property {number} server_time ms since the epoch
 * @property {number} created_at
 */

/**
 * @typedef {object} ChatLine
 * @property {number} at
 * @property {string} slot the seat that said it
 * @property {string | null} name the account's name, if any
 * @property {string} text as typed: shown as text
 */

/**
 * `GET /api/games/{id}?token=T`: `you` is the seat of the token, or else of the
 * signed-in account.
 * @typedef {{ id: string, name: string, round: number }} GameTournament
 * @typedef {GameView & { you?: string, tournament?: GameTournament }} GameAnswer
 */

/**
 * `POST /api/games` and the rematch: the game and the tokens of the caller's seats.
 * @typedef {object} Created
 * @property {string} id
 * @property {string} position
 * @property {Record<string, string>} tokens by seat
 * @property {GameView} game
 */

/**
 * A line of `GET /api/games`.
 * @typedef {object} GameSummary
 * @property {string} id
 * @property {string} variant
 * @property {string} rules
 * @property {boolean} online
 * @property {Lineup} players
 * @property {number} moves a count
 * @property {string | null} result
 * @property {string | null} reason
 * @property {boolean} rated
 * @property {[string | null, string | null]} names Black's and White's accounts (or a record's names)
 * @property {number} created_at
 * @property {number} updated_at
 */

/**
 * A game of `POST /api/records`.
 * @typedef {object} RecordGame
 * @property {number} number its number in the record, from 1
 * @property {string | null} variant null when the game cannot be read at all
 * @property {string | null} rules
 * @property {string | null} start
 * @property {string[]} moves the moves that can be played
 * @property {string[]} positions
 * @property {string | null} event
 * @property {string | null} black
 * @property {string | null} white
 * @property {string | null} result
 * @property {string | null} termination
 * @property {boolean} [reflected] Scrambled Eggs on the array reflected top to bottom
 * @property {string} [error] why the game cannot be imported whole: the game, move and move number
 */

/**
 * A score from Black's side: centipawns, moves to a connection, or the result.
 * @typedef {{ cp?: number, mate?: number, result?: string }} BlackScore
 */

/**
 * A report of the analysis socket, after each iteration.
 * @typedef {object} AnalysisInfo
 * @property {'info'} type
 * @property {number} depth
 * @property {BlackScore} score
 * @property {string[]} pv
 * @property {MoveView | null} best
 * @property {number} nodes
 * @property {number} nps
 * @property {string} position the position analysed
 */

/**
 * The solver's proof of a forced win, found beside the search.
 * @typedef {object} AnalysisProved
 * @property {'proved'} type
 * @property {string} position the position analysed
 * @property {'black' | 'white'} winner
 * @property {string[]} line the winner's moves and the loser's longest resistance
 * @property {number} moves the proof's longest line, both sides' moves (plies): the win comes within it
 */

/**
 * @typedef {AnalysisInfo
 *   | AnalysisProved
 *   | { type: 'done', position: string }
 *   | { type: 'error', error: string }} AnalysisMessage
 */

/**
 * @typedef {object} VariantMeta
 * @property {string} id what every request takes
 * @property {string} title
 * @property {number[]} boards the board sizes it is played on
 * @property {boolean} partnership whether a side may have two players
 * @property {boolean} connection whether a simultaneous connection can happen
 */

/** @typedef {{ level: number, description: string, elo: number, beginner: boolean }} LevelMeta */

/**
 * @typedef {object} Limits
 * @property {number} setup_moves
 * @property {[number, number]} movetime_ms
 * @property {number} live_initial_s
 * @property {number} live_increment_s
 * @property {[number, number]} correspondence_days
 * @property {number} evaluations
 * @property {number} evaluation_depth
 * @property {number} analysis_s
 * @property {number} list
 */

/**
 * `GET /api/meta`: what the server offers.
 * @typedef {object} Meta
 * @property {VariantMeta[]} variants
 * @property {string[]} rules
 * @property {LevelMeta[]} levels
 * @property {string[]} seats
 * @property {Limits} limits
 * @property {boolean} mail whether the site sends e-mail
 */

/**
 * A line of play on a screen: its start, moves and the position text after each.
 * `current` is the last position when the server sent it whole (a game's).
 * @typedef {object} Line
 * @property {string} variant
 * @property {string} rules
 * @property {string} start
 * @property {string[]} moves
 * @property {string[]} positions
 * @property {PositionView | null} [current]
 * @property {MoveView | null} [lastMove] the last move, when the server sent it
 */

/**
 * The signed-in account: `GET /api/me`, and the answer to signing up or in.
 * @typedef {object} Me
 * @property {string} name
 * @property {string} [email]
 * @property {boolean} bot
 * @property {number} created_at
 */

/**
 * What is e-mailed of the games waiting for a player's move: an e-mail at each, a daily
 * digest, or nothing.
 * @typedef {'each' | 'digest' | 'off'} Notices
 */

/**
 * `GET /api/me/mail` and `PUT /api/me/mail`: the account's address and what is sent to it.
 * @typedef {object} MailSettings
 * @property {string | null} email
 * @property {boolean} verified
 * @property {Notices} notices
 * @property {boolean} sending whether this site sends e-mail at all (`loa serve --smtp`)
 * @property {boolean} replies whether replying to a your-move e-mail plays the move
 */

/**
 * `POST /mail/unsubscribe/{secret}`: the account whose notices stopped.
 * @typedef {{ name: string, notices: 'off' }} Unsubscribed
 */

/**
 * `GET /api/password-reset/{secret}`: the account a reset link sets the password of.
 * @typedef {{ name: string }} ResetLink
 */

/**
 * A line of `GET /api/me/waiting`: a game in which it is the signed-in player's move.
 * @typedef {object} WaitingGame
 * @property {string} id
 * @property {string | null} opponent their account's name, if they have one
 * @property {string} against what the opponent is called: their name, `loa level N` or `Anonymous`
 * @property {number | null} time_left_ms the player's, when a clock runs
 * @property {number | null} resumes_at when the player's clock runs again, while it stands
 *   still for their vacation
 * @property {boolean} correspondence
 * @property {number} moves played so far
 */

/**
 * `GET`, `POST` and `DELETE /api/me/vacation`: the vacation running, if one is, and the
 * days still to take this year.
 * @typedef {object} Vacation
 * @property {number | null} until when the vacation running ends
 * @property {number} days_left
 * @property {number} days_a_year
 */

/**
 * A rating in one category (a variant at a speed).
 * @typedef {object} RatingView
 * @property {number} rating
 * @property {number} deviation
 * @property {number} games
 * @property {boolean} provisional shown with `?`
 */

/** @typedef {'bullet' | 'blitz' | 'rapid' | 'classical' | 'correspondence'} Speed */

/**
 * A point of a rating's history: the rating after a game.
 * @typedef {object} HistoryPoint
 * @property {string} category `standard/blitz`
 * @property {string} game
 * @property {number} at ms since the epoch
 * @property {number} rating
 */

/**
 * `GET /api/players/{name}`.
 * @typedef {object} Profile
 * @property {string} name
 * @property {'GM' | 'IM' | 'CM' | null} title
 * @property {boolean} bot
 * @property {boolean} deleted
 * @property {number} created_at
 * @property {Record<string, Partial<Record<Speed, RatingView>>>} ratings by variant, then speed
 * @property {HistoryPoint[]} history oldest first
 * @property {{ gold: number, silver: number, bronze: number }} medals
 */

/**
 * A line of `GET /api/players/{name}/opponents`: results in finished games.
 * @typedef {object} Opponent
 * @property {string} name
 * @property {boolean} bot
 * @property {number} games
 * @property {number} wins
 * @property {number} losses
 * @property {number} draws
 */

/**
 * A line of `GET /api/leaderboard`.
 * @typedef {object} Ranked
 * @property {string} name
 * @property {number} rating
 * @property {number} deviation
 * @property {number} games
 * @property {boolean} provisional
 * @property {Speed} speed
 * @property {boolean} bot
 */

/** @typedef {'black' | 'white' | 'random'} ColorChoice */

/**
 * What a seek or a challenge offers.
 * @typedef {object} Terms
 * @property {string} variant
 * @property {string} rules
 * @property {TimeControl} clock
 * @property {boolean} rated
 * @property {ColorChoice} color the maker's
 */

/**
 * A seek of the lobby: `GET /api/seeks`, `GET /api/seeks/{id}` and the lobby socket.
 * @typedef {object} Seek
 * @property {string} id
 * @property {string | null} name the maker's account; null for a person not signed in
 * @property {number | null} rating the maker's in the seek's category
 * @property {boolean | null} provisional
 * @property {string} variant
 * @property {string} rules
 * @property {TimeControl} clock
 * @property {boolean} rated
 * @property {ColorChoice} color the maker's
 * @property {number} created_at
 * @property {string | null} game once someone took it
 */

/**
 * `POST /api/seeks`: the seek and its maker's seat token in the game to come.
 * @typedef {{ id: string, token: string }} CreatedSeek
 */

/**
 * `POST /api/seeks/{id}/accept`: the game, the taker's colour and seat token.
 * @typedef {{ game: string, color: 'black' | 'white', token: string }} Taken
 */

/**
 * A challenge to a named player.
 * @typedef {object} Challenge
 * @property {string} id
 * @property {string} from
 * @property {string} to
 * @property {string} variant
 * @property {string} rules
 * @property {TimeControl} clock
 * @property {boolean} rated
 * @property {ColorChoice} color the challenger's
 * @property {'open' | 'accepted' | 'declined' | 'cancelled' | 'expired'} status
 * @property {number} created_at
 * @property {string | null} game once accepted
 */

/**
 * A player the account blocks, as `GET /api/me/blocks` lists them.
 * @typedef {{ name: string, created_at: number }} Block
 */

/**
 * An API token as `GET /api/tokens` lists it.
 * @typedef {object} TokenView
 * @property {number} id
 * @property {string} label
 * @property {number} created_at
 * @property {number | null} used_at
 */

/**
 * `POST /api/tokens`: the token, shown this once.
 * @typedef {{ id: number, label: string, token: string }} CreatedToken
 */

export {};

/**
 * A board of a tournament's round: a game, or a bye.
 * @typedef {object} TournamentPairing
 * @property {number} round
 * @property {number} board
 * @property {string} [game]
 * @property {string} [black]
 * @property {string} [white]
 * @property {string | null} [result] `1-0`, `0-1`, `1/2-1/2`; null while played
 * @property {boolean} [forfeit]
 * @property {string} [bye] the player of a bye
 * @property {number} [points] what the bye scores
 */

/**
 * @typedef {object} TournamentStanding
 * @property {number} rank
 * @property {string} name
 * @property {number} [division] a league's, this season
 * @property {number} points
 * @property {number} sonneborn_berger
 * @property {number} buchholz
 * @property {number} wins
 * @property {number} draws
 * @property {number} losses
 * @property {number} byes
 * @property {number} rating
 * @property {boolean} active
 */

/**
 * `GET /api/tournaments/{id}`.
 * @typedef {object} Tournament
 * @property {string} id
 * @property {string} name
 * @property {'swiss' | 'round-robin' | 'arena' | 'league'} format
 * @property {number} rounds
 * @property {number} [minutes] an arena's length
 * @property {number} [ends_at] when an arena stops pairing
 * @property {string} variant
 * @property {string} rules
 * @property {TimeControl} clock
 * @property {boolean} rated
 * @property {string} creator
 * @property {'open' | 'running' | 'finished'} status
 * @property {number} round
 * @property {number | null} starts_at
 * @property {number | null} started_at
 * @property {number | null} finished_at
 * @property {string | null} championship
 * @property {number} players
 * @property {TournamentPairing[]} pairings
 * @property {TournamentStanding[]} standings
 * @property {{ season: number, standings: TournamentStanding[] }[]} [seasons] a league's earlier ones
 */

/** @typedef {'inaccuracy' | 'mistake' | 'blunder'} Slip */

/**
 * A move of a game's report.
 * @typedef {object} ReportMove
 * @property {number} ply the move's index, from 0
 * @property {'black' | 'white'} side
 * @property {string} played
 * @property {Slip | null} judgement
 * @property {string | null} better the engine's move, when the move was a slip
 * @property {boolean} lost_win a forced win before the move, none after
 * @property {number} loss the mover's expected score given away, 0 to 1
 * @property {number} accuracy 0 to 100
 * @property {string} comment as the game's record carries it
 */

/**
 * A position of a game's report: Black's expected score and the evaluation for Black.
 * @typedef {{ black: number, eval: string, best: string | null }} ReportPosition
 */

/**
 * @typedef {{ black: number, white: number }} SideCounts
 * @typedef {object} GameReportView
 * @property {number} nodes
 * @property {{ black: number | null, white: number | null }} accuracy
 * @property {SideCounts} inaccuracies
 * @property {SideCounts} mistakes
 * @property {SideCounts} blunders
 * @property {ReportPosition[]} positions
 * @property {ReportMove[]} moves
 */

/**
 * `GET /api/games/{id}/report`.
 * @typedef {{ state: 'none' }
 *   | { state: 'queued', ahead: number }
 *   | { state: 'running', searched: number, positions: number }
 *   | { state: 'ready', report: GameReportView }
 *   | { state: 'failed', error: string }} ReportAnswer
 */

/**
 * A player's first try at a puzzle, which rated them.
 * @typedef {{ solved: boolean, rating_before: number, rating_after: number, change: number }} PuzzleTried
 */

/**
 * A puzzle, without its solution.
 * @typedef {object} PuzzleView
 * @property {string} id
 * @property {string} variant
 * @property {string} rules
 * @property {string} position
 * @property {'black' | 'white'} to_move who wins
 * @property {number} moves the winner's moves in the puzzle's line
 * @property {string[]} themes
 * @property {number} rating
 * @property {number} plays
 * @property {number} wins
 * @property {string} [day] the day it is the puzzle of
 * @property {PuzzleTried | null} tried
 */

/**
 * `POST /api/puzzles/{id}/moves`.
 * @typedef {object} PuzzleStep
 * @property {'right' | 'solved' | 'wrong' | 'unproven'} result
 * @property {string} [reply]
 * @property {string[]} [solution]
 * @property {PuzzleTried} [rated]
 */

/**
 * `GET /api/puzzles`.
 * @typedef {object} PuzzlesSummary
 * @property {number} count
 * @property {Record<string, number>} themes
 * @property {Record<string, number>} variants
 * @property {{ rating: number, deviation: number, provisional: boolean, plays: number, wins: number } | null} rating
 */

/**
 * `POST /api/explorer`.
 * @typedef {object} ExplorerAnswer
 * @property {string} position
 * @property {'black' | 'white'} to_move
 * @property {number} games
 * @property {{ move: string, games: number, black_wins: number, white_wins: number, draws: number }[]} moves
 * @property {{ move: string | null, eval: string } | null} [engine]
 * @property {'black' | 'white' | null} [proved_win]
 * @property {string | null} [winning_move]
 */
