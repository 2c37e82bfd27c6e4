package framework

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// Default time limits of whole operations, retries and rate-limit waits
// included, where no timeouts block sets them.
const (
	DefaultWriteTimeout = 10 * time.Minute
	DefaultReadTimeout  = 5 * time.Minute
)

// TimeoutFunc reads one operation's time limit from a timeouts block (plan.Timeouts.Create).
type TimeoutFunc func(ctx context.Context, defaultTimeout time.Duration) (time.Duration, diag.Diagnostics)

// OperationContext bounds ctx by a resource operation's time limit, so that
// retries and rate-limit waits stop with it; an unreadable limit is an
// error in diags.
func OperationContext(ctx context.Context, timeout TimeoutFunc, defaultTimeout time.Duration, diags *diag.Diagnostics) (context.Context, context.CancelFunc) {
	limit, d := timeout(ctx, defaultTimeout)
	diags.Append(d...)
	return client.WithTimeLimit(ctx, limit, &TimeLimitError{Limit: limit, Settable: true})
}

// DataSourceContext bounds a data source's read by DefaultReadTimeout: it
// has no timeouts block, and pages that never end must not hold the run.
func DataSourceContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return client.WithTimeLimit(ctx, DefaultReadTimeout, &TimeLimitError{Limit: DefaultReadTimeout})
}

// TimeLimitError is the end of an operation's time limit; it is a
// context.DeadlineExceeded, and says how to give the operation more time.
type TimeLimitError struct {
	Limit    time.Duration
	Settable bool // by a resource's timeouts block; a data source has none
}

func (e *TimeLimitError) Error() string {
	return fmt.Sprintf("the operation's time limit of %s ran out", e.Limit)
}

// Unwrap makes it a context.DeadlineExceeded.
func (e *TimeLimitError) Unwrap() error { return context.DeadlineExceeded }

// more says how the operation gets more time, or that it cannot.
func (e *TimeLimitError) more() string {
	if e.Settable {
		return "give it more with the resource's timeouts block"
	}
	return fmt.Sprintf("a data source has no timeouts block: its read stops after %s", e.Limit)
}
