package client

import (
	"context"
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Logging goes through tflog with the caller's ctx, so lines land in
// Terraform's log with the operation's fields. Nothing here logs headers or
// bodies; on top of that every call masks the API key in messages and
// fields (maskKey), so the key cannot reach a log even through an error
// string.

// maskKey returns ctx with the API key masked in every tflog line.
func maskKey(ctx context.Context, key string) context.Context {
	if key == "" {
		return ctx
	}
	return tflog.MaskLogStrings(ctx, key)
}

// logAttempt logs one HTTP attempt once it ended, as its one line: method,
// path, attempt, duration and outcome (key "status" with the answer's
// status, or "error" with what failed). go-retryablehttp logs nothing
// (request.go gives it no Logger): its lines repeated these with the full
// URL ("performing request", "request failed", "retrying request"), so that
// TF_LOG=debug showed every request twice. The decision to retry and the
// wait are logged once per retry by the client's Backoff; a pause for the
// pace or a 429 by the throttle's callers.
func logAttempt(ctx context.Context, req *http.Request, attempt int32, elapsed time.Duration, outcome string, value any) {
	tflog.Debug(ctx, "API request", map[string]any{
		"method": req.Method, "path": req.URL.RequestURI(), "attempt": attempt,
		"duration_ms": durationMS(elapsed), outcome: value,
	})
}

// durationMS renders a duration in milliseconds for log fields.
func durationMS(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}
