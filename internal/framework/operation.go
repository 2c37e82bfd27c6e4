package framework

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// Default time limits of whole operations, retries and rate-limit waits
// included, where no timeouts block sets them.
const (
	DefaultWriteTimeout = 10 * time.Minute
	DefaultReadTimeout  = 5 * time.Minute
)

// TimeoutFunc reads one operation's time limit from a timeouts block (plan.Timeouts.Create).
type TimeoutFunc func(ctx context.Context, defaultTimeout time.Duration) (time.Duration, diag.Diagnostics)

// OperationContext bounds ctx by an operation's time limit, so that retries
// and rate-limit waits stop with it; an unreadable limit is an error in diags.
func OperationContext(ctx context.Context, timeout TimeoutFunc, defaultTimeout time.Duration, diags *diag.Diagnostics) (context.Context, context.CancelFunc) {
	limit, d := timeout(ctx, defaultTimeout)
	diags.Append(d...)
	return context.WithTimeout(ctx, limit)
}
