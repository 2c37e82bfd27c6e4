package localapi

import (
	"context"
	"encoding/json"
	"time"
)

const activityColumns = `id, team_id, config_id, activity, detail, created_at`

// log adds a change log entry in the write's transaction; it takes a
// changeLog's results as they are: nil logs nothing, an error fails the
// write.
func (tx *storeTx) log(a *Activity, err error) error {
	if err != nil || a == nil {
		return err
	}
	_, err = tx.st.insertActivity.ExecContext(tx.ctx, a.ID, a.Project, a.ConfigID, a.Activity, string(a.Detail), a.At.UnixMicro())
	return err
}

// activityPage returns a page of the config's change log, newest first
// (limit -1: all of it), and the log's length.
func (st *store) activityPage(ctx context.Context, team, configID, limit, offset int64) ([]Activity, int64, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	var count int64
	if err := st.activityCount.QueryRowContext(ctx, team, configID).Scan(&count); err != nil {
		return nil, 0, err
	}
	entries, err := queryAll(ctx, st.activityRows, scanActivity, team, configID, limit, offset)
	return entries, count, err
}

func scanActivity(row scanner) (Activity, error) {
	var a Activity
	var detail string
	var at int64
	err := row.Scan(&a.ID, &a.Project, &a.ConfigID, &a.Activity, &detail, &at)
	a.Detail, a.At = json.RawMessage(detail), time.UnixMicro(at).UTC()
	return a, err
}
