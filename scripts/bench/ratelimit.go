package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"
)

// runRateLimit is the rate-limit scenario (make bench-ratelimit): n configs
// applied with the provider's default settings against the local API
// limited to b.rateLimit requests per minute per key, as a user whose key
// allows less than the provider's default pace. It reports the apply's wall
// time against the ideal for that limit and the 429s the API served.
//
// The local API counts requests in a sliding minute, as the live service
// does: a burst of the limit goes at once, and it refills a whole minute
// after it was spent, so the fastest any client can make R requests has the
// last batch go out floor((R-1)/limit) minutes after the first. That is the
// ideal the apply is held to (a lower bound: the apply's own work comes on
// top). The same apply without a limit, measured first, shows that work;
// the ratio to the ideal plus all of it is reported too (an upper bound:
// part of that work overlaps the wait).
func (b *bench) runRateLimit(ctx context.Context, w io.Writer) error {
	if b.n <= b.rateLimit {
		return fmt.Errorf("-n %d must exceed -rate-limit %d, or the limit is never reached", b.n, b.rateLimit)
	}
	dir := filepath.Join(b.work, "ratelimit")
	half := b.n / 2
	if err := writeConfig(dir, providerConfig(half, b.n-half)); err != nil {
		return err
	}
	if _, err := b.terraform(ctx, dir, "", "init", "-input=false"); err != nil {
		return err
	}
	apply := []string{"apply", "-input=false", "-auto-approve", "-var", "gen=1"}

	// Without a limit: the floor of the same apply.
	if err := b.setRateLimit(ctx, 0); err != nil {
		return err
	}
	free, err := b.terraform(ctx, dir, "", apply...)
	if err != nil {
		return err
	}
	if _, err := b.terraform(ctx, dir, "", "destroy", "-input=false", "-auto-approve", "-var", "gen=1"); err != nil {
		return err
	}

	// Against the limit, which counts from now; the provider's pauses are
	// its WARN lines.
	if err := b.setRateLimit(ctx, b.rateLimit); err != nil {
		return err
	}
	defer func() { _ = b.setRateLimit(context.WithoutCancel(ctx), 0) }()
	if err := b.resetCounters(ctx); err != nil {
		return err
	}
	log := filepath.Join(dir, "provider.log")
	limited, err := b.terraformEnv(ctx, dir, "", []string{"TF_LOG_PROVIDER=WARN", "TF_LOG_PATH=" + log}, apply...)
	if err != nil {
		return err
	}
	c, err := b.counters(ctx)
	if err != nil {
		return err
	}
	raw, err := os.ReadFile(log)
	if err != nil {
		return err
	}
	pauses := int64(bytes.Count(raw, []byte("every request of this client pauses for")))

	accepted := c["total"] - c["throttled"]
	ideal := time.Duration((accepted-1)/int64(b.rateLimit)) * time.Minute
	r := ratio(limited.wall, ideal)
	perPause := math.Inf(1)
	if pauses > 0 {
		perPause = float64(c["throttled"]) / float64(pauses)
	}

	fmt.Fprintf(w, "\n### Rate limit: %d configs (%d transformation + %d import app configs), API limited to %d requests/minute per key\n\n",
		b.n, half, b.n-half, b.rateLimit)
	fmt.Fprintf(w, "Provider settings: the defaults. Load average after: %s.\n\n", loadAverage())
	fmt.Fprintln(w, "| | |")
	fmt.Fprintln(w, "| --- | ---: |")
	fmt.Fprintf(w, "| requests the apply needed (answered, not 429) | %d |\n", accepted)
	fmt.Fprintf(w, "| ideal: the fastest the limit allows, floor((%d−1)/%d) minutes | %s |\n", accepted, b.rateLimit, seconds(ideal))
	fmt.Fprintf(w, "| the same apply without a limit | %s |\n", seconds(free.wall))
	fmt.Fprintf(w, "| measured apply | %s |\n", seconds(limited.wall))
	fmt.Fprintf(w, "| ratio to the ideal | %.2f× |\n", r)
	fmt.Fprintf(w, "| ratio to the ideal plus the apply without a limit | %.2f× |\n", ratio(limited.wall, ideal+free.wall))
	fmt.Fprintf(w, "| 429s served | %d |\n", c["throttled"])
	fmt.Fprintf(w, "| pauses (provider WARN lines) | %d |\n", pauses)
	fmt.Fprintf(w, "| creates sent | %d |\n", c["create"])

	fmt.Fprintln(w, "\n| target | measured | |")
	fmt.Fprintln(w, "| --- | --- | --- |")
	fmt.Fprintf(w, "| apply ≤ 1.25× ideal | %.2f× | %s |\n", r, check(r <= 1.25))
	fmt.Fprintf(w, "| 429s ≤ 10 | %d | %s |\n", c["throttled"], check(c["throttled"] <= 10))
	fmt.Fprintf(w, "| at most one 429 per pause | %.2f | %s |\n", perPause, check(pauses > 0 && perPause <= 1))
	return nil
}
