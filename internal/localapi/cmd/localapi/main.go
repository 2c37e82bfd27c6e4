// Command localapi serves the local pipeline-config API: a faithful local
// implementation of the live service for demos and acceptance tests.
//
//	go run ./internal/localapi/cmd/localapi -addr 127.0.0.1:0
//
// The first line on stdout is "listening http://HOST:PORT"; the seeded keys
// and plugins follow. SIGINT or SIGTERM stops it cleanly.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
	case err != nil:
		fmt.Fprintln(os.Stderr, "localapi:", strings.TrimPrefix(err.Error(), "localapi: "))
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("localapi", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		addr        = fs.String("addr", "127.0.0.1:8010", "`HOST:PORT` to listen on; port 0 picks a free one")
		db          = fs.String("db", "", "SQLite `FILE` that keeps data across restarts (default: in memory)")
		plugins     = fs.String("plugins", "", "JSON `FILE` replacing the seeded plugin catalog")
		version     = fs.String("version", "", "service `VERSION` to behave as: B (the seed's, default), C, D, E (creates make hog functions), E2026 (as today) or F (no collections)")
		generation  = fs.Int("generation", localapi.Generation1, "service generation `N` to behave as: 1 (version B), 2 (E) or 3 (F)")
		today       = fs.Bool("today", false, "serve generation 2 as the service is today, version E2026: every key scoped, JSON creates refused, \"Endpoint not found.\" (implies -generation 2)")
		firstID     = fs.Int64("first-config-id", 1, "id `N` of the first config made: config ids overlap plugin ids, or not")
		noAccess    = fs.Bool("no-plugin-access", false, "the organization's plugin access is below \"config\": creates 400, no configs shown, plugin listings 403")
		rateLimit   = fs.Int("rate-limit", 0, "per-key requests per minute before 429 (0: off)")
		rateHour    = fs.Int("rate-limit-hour", 0, "per-key requests per hour before 429 (0: off)")
		f429        = fs.Float64("fault-429", 0, "share (0..1) of requests answered 429")
		f502        = fs.Float64("fault-502", 0, "share (0..1) of requests answered 502")
		f503        = fs.Float64("fault-503", 0, "share (0..1) of requests answered 503")
		fReset      = fs.Float64("fault-reset", 0, "share (0..1) of connections reset without an answer")
		latency     = fs.Duration("latency", 0, "latency added to every request (e.g. 50ms)")
		seed        = fs.Uint64("fault-seed", 0, "seed for the fault draws (0: random)")
		endless     = fs.Bool("fault-endless-pages", false, "lists never end: pages of made-up records, next always further")
		padding     = fs.Int64("fault-page-padding", 0, "`BYTES` of spaces after each list page (an oversized answer)")
		debugRoutes = fs.Bool("debug-routes", false, "serve /_localapi/counters, jobs, hog-functions, faults, rate-limit, generation, plugin-access and plugins")
		printCount  = fs.Bool("print-counters", false, "print the request counters on exit")
		verbose     = fs.Bool("v", false, "log server-side errors to stderr")
	)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if *generation == 0 {
		// Options read 0 as 1; a flag set to 0 is a mistake.
		return errors.New("-generation 0: want 1, 2 or 3")
	}
	gen := *generation
	if *today && !flagSet(fs, "generation") {
		gen = localapi.Generation2 // today's service is generation 2
	}
	var v localapi.Version
	if flagSet(fs, "version") {
		if flagSet(fs, "generation") || *today {
			return errors.New("-version names the service alone: leave -generation and -today out")
		}
		var err error
		if v, err = localapi.ParseVersion(*version); err != nil {
			return err
		}
	}
	opts := localapi.Options{
		Addr:               *addr,
		DBPath:             *db,
		Version:            v,
		Generation:         gen,
		Today:              *today,
		FirstConfigID:      *firstID,
		NoPluginAccess:     *noAccess,
		RateLimitPerMinute: *rateLimit,
		RateLimitPerHour:   *rateHour,
		Faults: localapi.Faults{Rate429: *f429, Rate502: *f502, Rate503: *f503, ResetRate: *fReset, Latency: *latency, Seed: *seed,
			EndlessPages: *endless, PagePadding: *padding},
		DebugRoutes: *debugRoutes,
	}
	if *verbose {
		opts.Logger = slog.New(slog.NewTextHandler(stderr, nil))
	}
	if *plugins != "" {
		ps, err := localapi.LoadPlugins(*plugins)
		if err != nil {
			return err
		}
		opts.Plugins = ps
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := localapi.Start(opts)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(stdout)
	// The first line is what scripts wait for: flush it on its own.
	fmt.Fprintf(out, "listening %s\n", srv.URL)
	err = out.Flush()
	if err == nil {
		printSeed(out, opts, srv.Server)
		err = out.Flush()
	}
	if err != nil {
		// Scripts find the server by that line: without it, it is of no use.
		return errors.Join(fmt.Errorf("write stdout: %w", err), srv.Close())
	}

	<-ctx.Done()
	stop()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdownCtx)
	if *printCount {
		printCounters(out, srv.Counters())
	}
	fmt.Fprintln(out, "stopped")
	return errors.Join(err, out.Flush())
}

// flagSet reports whether the command line set the flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// nameOf is a plugin's name as the seed lists it: a name that is "" or
// null shows as such.
func nameOf(p localapi.Plugin) string {
	switch {
	case p.Name == nil:
		return "(name null)"
	case *p.Name == "":
		return `(name "")`
	}
	return *p.Name
}

func printSeed(w io.Writer, opts localapi.Options, srv *localapi.Server) {
	v := srv.Version()
	switch {
	case v == localapi.VersionE2026:
		fmt.Fprintf(w, "version %s, generation %d, as the service is today\n", v, srv.Generation())
	case srv.Today():
		fmt.Fprintf(w, "version %s, generation %d (today's service once moved to generation 2)\n", v, srv.Generation())
	default:
		fmt.Fprintf(w, "version %s, generation %d\n", v, srv.Generation())
	}
	if opts.NoPluginAccess {
		fmt.Fprintln(w, "organization: plugin access below \"config\"")
	}
	fmt.Fprintln(w, "keys:")
	for _, k := range localapi.DefaultKeys() {
		scopes := "legacy, no scopes: every action"
		if srv.Today() {
			scopes = "legacy, no scopes: every action, but \"*\" on today's service"
		}
		if len(k.Scopes) > 0 {
			scopes = "scopes " + strings.Join(k.Scopes, " ")
		}
		reach := "organization-wide"
		if k.LimitedToProjects {
			reach = "limited to them"
		}
		fmt.Fprintf(w, "  %-16s projects %v (%s), %s\n", k.Key, k.Projects, reach, scopes)
	}
	plugins := opts.Plugins
	if plugins == nil {
		plugins = localapi.DefaultPlugins()
	}
	fmt.Fprintln(w, "plugins:")
	for _, p := range plugins {
		kinds := p.Collections()
		if len(kinds) == 0 {
			kinds = []string{"(in no collection)"}
		}
		jobs := slices.Sorted(maps.Keys(p.PublicJobs))
		fmt.Fprintf(w, "  %3d %-21s %s", p.ID, nameOf(p), strings.Join(kinds, ", "))
		if len(jobs) > 0 {
			fmt.Fprintf(w, "; jobs %q", jobs)
		}
		if p.URL != "" {
			fmt.Fprintf(w, "; %s", p.URL)
		}
		fmt.Fprintln(w)
	}
}

func printCounters(w io.Writer, c map[string]int64) {
	fmt.Fprintln(w, "counters:")
	for _, name := range slices.Sorted(maps.Keys(c)) {
		fmt.Fprintf(w, "  %-12s %d\n", name, c[name])
	}
}
