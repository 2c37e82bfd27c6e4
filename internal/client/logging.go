package client

import (
	"context"
	"fmt"
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

// tflogAdapter is go-retryablehttp's LeveledLogger writing to tflog with
// one request's ctx.
type tflogAdapter struct {
	ctx context.Context
}

func (l tflogAdapter) Error(msg string, kv ...any) {
	// retryablehttp reports each failed attempt as an error, also when a
	// retry follows; the final outcome is returned to the caller, so this
	// is a warning.
	tflog.Warn(l.ctx, "retryablehttp: "+msg, kvFields(kv))
}

func (l tflogAdapter) Warn(msg string, kv ...any) {
	tflog.Warn(l.ctx, "retryablehttp: "+msg, kvFields(kv))
}

func (l tflogAdapter) Info(msg string, kv ...any) {
	tflog.Info(l.ctx, "retryablehttp: "+msg, kvFields(kv))
}

func (l tflogAdapter) Debug(msg string, kv ...any) {
	tflog.Debug(l.ctx, "retryablehttp: "+msg, kvFields(kv))
}

// kvFields turns key/value pairs into tflog fields, rendering values that
// are not plain data (errors, durations) as text.
func kvFields(kv []any) map[string]any {
	fields := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		key := fmt.Sprint(kv[i])
		switch v := kv[i+1].(type) {
		case error:
			fields[key] = v.Error()
		case time.Duration:
			fields[key] = v.String()
		case fmt.Stringer:
			fields[key] = v.String()
		default:
			fields[key] = v
		}
	}
	return fields
}

// durationMS renders a duration in milliseconds for log fields.
func durationMS(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}
