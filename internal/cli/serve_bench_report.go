package cli

import (
	"fmt"
	"io"
	"strconv"

	"cardtable/internal/loadgen"
	"cardtable/internal/pgstore"
)

// The live-table mode's report in words (serve_bench_cluster.go runs it).

// benchStore is the database a live-table run's servers used, as the
// report's store field names it ("unknown" only for servers of --target
// without --db, whose database this run cannot see), and the servers
// and it in words ("on PostgreSQL").
func benchStore(f clusterFlags) (store, where string) {
	at := ""
	if f.target != "" {
		at = "at --target, "
	}
	switch {
	case pgstore.IsURL(f.db):
		return "postgres", at + "on PostgreSQL"
	case f.servers == 0:
		return "unknown", at + "on a database not known here (no --db postgres://... given)"
	case f.db == "":
		return "sqlite", "on a temporary SQLite database (removed after the run)"
	}
	return "sqlite", "on the SQLite database " + strconv.Quote(f.db)
}

// printClusterReport writes the live-table result for a person to read.
func printClusterReport(w io.Writer, res loadgen.ArlResult, rep clusterReport) {
	fmt.Fprintf(w, "%d server(s) %s\n", rep.Servers, rep.where)
	fmt.Fprintln(w, res)
	fmt.Fprintf(w, "reconnections %d; acknowledged events lost or changed: %d\n", rep.Reconnects, rep.Lost)
	if rep.Kills > 0 {
		f, m := rep.Failover, rep.MovedOn
		fmt.Fprintf(w, "failover over %d kills (%d tables hit), kill to a view of the table again: p50 %.0fms, p99 %.0fms, max %.0fms; never: %d\n",
			rep.Kills, f.N+rep.Stuck, f.P50, f.P99, f.Max, rep.Stuck)
		fmt.Fprintf(w, "  kill to the table's next event (a person's pause included): p50 %.0fms, p99 %.0fms, max %.0fms; never: %d\n",
			m.P50, m.P99, m.Max, rep.NotMovedOn)
	}
	if rep.KillError != "" {
		fmt.Fprintf(w, "the kills stopped early: %s\n", rep.KillError)
	}
	for _, m := range rep.RSS {
		fmt.Fprintf(w, "server %d: peak RSS %.0f MB, at the end %.0f MB", m.Server, m.PeakRSSMB, m.EndRSSMB)
		if m.CPUSeconds >= 0 {
			fmt.Fprintf(w, "; CPU %.1f s during the play", m.CPUSeconds)
		}
		fmt.Fprintf(w, "; logged %d warnings, %d errors\n", m.Warnings, m.Errors)
		if m.FirstError != "" {
			fmt.Fprintf(w, "  first error: %.300s\n", m.FirstError)
		}
	}
	var cpu float64
	for _, m := range rep.RSS {
		if m.CPUSeconds < 0 {
			cpu = -1
			break
		}
		cpu += m.CPUSeconds
	}
	if cpu > 0 && rep.Acked > 0 {
		fmt.Fprintf(w, "servers' CPU per acknowledged action: %.2f ms\n", 1000*cpu/float64(rep.Acked))
	}
	fmt.Fprintf(w, "load generator's CPU during the play: %.1f s\n", rep.ClientCPUSeconds)
	if p := rep.PG; p != nil {
		fmt.Fprintf(w, "PostgreSQL per acknowledged action: %.2f commits, %.2f rows inserted, %.2f updated, %.2f deleted\n",
			p.Commits, p.Inserted, p.Updated, p.Deleted)
	}
	fmt.Fprintf(w, "load average before %s, after %s (%d CPUs)\n", rep.LoadBefore, rep.LoadAfter, rep.CPUs)
}
