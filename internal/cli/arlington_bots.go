package cli

import (
	"log/slog"

	"cardtable/arlington/bot"
	"cardtable/internal/table"
	"cardtable/internal/web/arlweb"
)

// The bots are wired here, the one package that imports them: the tables
// seat them through table.BotFactory, and the Arlington handlers offer
// their levels and ask the hint bot.

// tableBot makes the bot of a level for a table (table.BotFactory).
func tableBot(level string, seed uint64) (table.Bot, error) { return bot.New(level, seed) }

// arlWSLimits bound one table WebSocket (zero: arlweb's defaults); a
// variable so that a test can make them tight enough to reach quickly.
var arlWSLimits arlweb.Limits

// arlOptions are the Arlington handlers' options with the bots wired.
func arlOptions(log *slog.Logger) arlweb.Options {
	return arlweb.Options{Log: log, Levels: bot.Names, Limits: arlWSLimits,
		Hint: func(seed uint64) (table.Bot, error) { return bot.New(arlweb.HintBot, seed) }}
}
