package localapi

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	_ "modernc.org/sqlite" // pure-Go SQLite driver: no cgo
)

// store keeps configs, job runs, hog functions and the activity log in
// SQLite. It holds a single connection behind a mutex: that serialises
// every read-modify-write (no lost update), makes an in-memory database work
// (each connection of ":memory:" would be a database of its own), and is
// fast enough: a statement takes microseconds, the HTTP round trip around
// it much longer.
type store struct {
	mu   sync.Mutex
	db   *sql.DB
	conn *sql.Conn

	insert, get, save, enabled, setOrder *sql.Stmt
	every                                *sql.Stmt // a project's configs, deleted ones too
	insertJob, jobs, clearJobs           *sql.Stmt
	insertHog, hogs, clearHogs           *sql.Stmt
	hogStmts                             // the hog function API's (store_hogfunctions.go)
	insertActivity, activityRows         *sql.Stmt
	activityCount                        *sql.Stmt
	// page and count list the configs of a set of plugins (a collection, as
	// the request's catalog has it: an upgrade may change it) that are not
	// deleted: every version of the service leaves deleted configs out of
	// its lists.
	page, count *sql.Stmt
}

const recordColumns = `id, team_id, plugin_id, enabled, ord, name, description, deleted, filters, config, created_at, updated_at`

const schema = `
CREATE TABLE IF NOT EXISTS plugin_configs (
	id          INTEGER PRIMARY KEY AUTOINCREMENT, -- one sequence for both collections, never reused
	team_id     INTEGER NOT NULL,
	plugin_id   INTEGER NOT NULL,
	enabled     INTEGER NOT NULL,
	ord         INTEGER NOT NULL,
	name        TEXT,
	description TEXT,
	deleted     INTEGER NOT NULL,
	filters     TEXT,
	config      TEXT NOT NULL,
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS plugin_configs_team_order ON plugin_configs (team_id, ord, plugin_id, id);
CREATE TABLE IF NOT EXISTS job_runs (
	id        INTEGER PRIMARY KEY AUTOINCREMENT,
	config_id INTEGER NOT NULL,
	team_id   INTEGER NOT NULL,
	type      TEXT NOT NULL,
	payload   TEXT NOT NULL,
	operation TEXT NOT NULL,
	at        INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS hog_functions (` + hogTableColumns + `);
CREATE TABLE IF NOT EXISTS activity_log (
	seq        INTEGER PRIMARY KEY AUTOINCREMENT,
	id         TEXT NOT NULL UNIQUE,
	team_id    INTEGER NOT NULL,
	config_id  INTEGER NOT NULL,
	activity   TEXT NOT NULL,
	detail     TEXT NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS activity_log_config ON activity_log (team_id, config_id, seq);
`

// openStore opens (and creates) the database; path "" is in memory. The
// first config made gets id firstID (when above 1) unless the database's
// sequence is past it.
func openStore(path string, firstID int64) (*store, error) {
	dsn := ":memory:"
	if path != "" {
		dsn = path
		// The file holds plugin secrets in plain text: readable by its
		// owner only. SQLite gives its -wal and -shm files the database
		// file's mode. An existing file keeps the mode it has.
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600) //nolint:gosec // G304: the database the user named
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
		if err := f.Close(); err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("open %s: %w", dsn, err), db.Close())
	}
	st := &store{db: db, conn: conn}
	if err := st.init(ctx, path != "", firstID); err != nil {
		return nil, errors.Join(fmt.Errorf("open %s: %w", dsn, err), st.close())
	}
	return st, nil
}

func (st *store) init(ctx context.Context, file bool, firstID int64) error {
	if file {
		// WAL with synchronous=FULL: every commit is synced to disk before
		// the write is answered, so an acknowledged write survives a killed
		// process and a power loss alike, as on the live service.
		// (synchronous=NORMAL, three times faster here, may lose the last
		// commits on a power loss.) busy_timeout: wait for another
		// process's lock instead of failing.
		for _, p := range []string{"PRAGMA busy_timeout=5000", "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL"} {
			if _, err := st.conn.ExecContext(ctx, p); err != nil {
				return err
			}
		}
	}
	if _, err := st.conn.ExecContext(ctx, schema); err != nil {
		return err
	}
	if err := st.upgradeHogFunctions(ctx); err != nil {
		return err
	}
	if firstID > 1 {
		// AUTOINCREMENT goes on after the larger of the table's largest
		// id and sqlite_sequence's seq.
		_, err := st.conn.ExecContext(ctx, `INSERT INTO sqlite_sequence (name, seq) SELECT 'plugin_configs', 0
			WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'plugin_configs')`)
		if err == nil {
			_, err = st.conn.ExecContext(ctx, `UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'plugin_configs'`, firstID-1)
		}
		if err != nil {
			return err
		}
	}
	prep := func(dst **sql.Stmt, q string) error {
		s, err := st.conn.PrepareContext(ctx, q)
		if err != nil {
			return fmt.Errorf("prepare %q: %w", q, err)
		}
		*dst = s
		return nil
	}
	stmts := []struct {
		dst **sql.Stmt
		q   string
	}{
		{&st.insert, `INSERT INTO plugin_configs (team_id, plugin_id, enabled, ord, name, description, deleted, filters, config, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&st.get, `SELECT ` + recordColumns + ` FROM plugin_configs WHERE id = ? AND team_id = ?`},
		{&st.save, `UPDATE plugin_configs SET enabled = ?, ord = ?, name = ?, description = ?, deleted = ?, filters = ?, config = ?, updated_at = ? WHERE id = ?`},
		{&st.enabled, `SELECT ` + recordColumns + ` FROM plugin_configs WHERE team_id = ? AND enabled = 1 ORDER BY ord, plugin_id, id`},
		{&st.every, `SELECT ` + recordColumns + ` FROM plugin_configs WHERE team_id = ? ORDER BY id`},
		{&st.setOrder, `UPDATE plugin_configs SET ord = ?, updated_at = ? WHERE id = ?`},
		{&st.insertJob, `INSERT INTO job_runs (config_id, team_id, type, payload, operation, at) VALUES (?, ?, ?, ?, ?, ?)`},
		{&st.jobs, `SELECT config_id, team_id, type, payload, operation, at FROM job_runs ORDER BY id`},
		{&st.clearJobs, `DELETE FROM job_runs`},
		{&st.insertHog, `INSERT INTO hog_functions (` + hogColumns + `) VALUES (` + hogPlaceholders + `)`},
		{&st.hogs, `SELECT ` + hogColumns + ` FROM hog_functions ORDER BY seq`},
		{&st.clearHogs, `DELETE FROM hog_functions`},
		{&st.insertActivity, `INSERT INTO activity_log (` + activityColumns + `) VALUES (?, ?, ?, ?, ?, ?)`},
		{&st.activityRows, `SELECT ` + activityColumns + ` FROM activity_log WHERE team_id = ? AND config_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?`},
		{&st.activityCount, `SELECT count(*) FROM activity_log WHERE team_id = ? AND config_id = ?`},
	}
	for _, s := range append(stmts, st.hogStatements()...) {
		if err := prep(s.dst, s.q); err != nil {
			return err
		}
	}
	// The plugins are a JSON array parameter: the catalog may change.
	where := ` WHERE team_id = ? AND deleted = 0 AND plugin_id IN (SELECT value FROM json_each(?))`
	if err := prep(&st.page, `SELECT `+recordColumns+` FROM plugin_configs`+where+` ORDER BY ord, plugin_id, id LIMIT ? OFFSET ?`); err != nil {
		return err
	}
	if err := prep(&st.count, `SELECT count(*) FROM plugin_configs`+where); err != nil {
		return err
	}
	return nil
}

func (st *store) close() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	var errs []error
	if st.conn != nil {
		errs = append(errs, st.conn.Close())
		st.conn = nil
	}
	errs = append(errs, st.db.Close())
	return errors.Join(errs...)
}

type scanner interface{ Scan(dest ...any) error }

func scanRecord(s scanner) (*record, error) {
	var rec record
	var name, desc, filters sql.NullString
	var config string
	err := s.Scan(&rec.ID, &rec.Team, &rec.Plugin, &rec.Enabled, &rec.Order, &name, &desc, &rec.Deleted,
		&filters, &config, &rec.CreatedAt, &rec.UpdatedAt)
	if err != nil {
		return nil, err
	}
	if name.Valid {
		rec.Name = &name.String
	}
	if desc.Valid {
		rec.Description = &desc.String
	}
	if filters.Valid {
		rec.Filters = json.RawMessage(filters.String)
	}
	rec.Config = json.RawMessage(config)
	return &rec, nil
}

func nullString(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

func nullJSON(raw json.RawMessage) any {
	if raw == nil {
		return nil
	}
	return string(raw)
}

func nowMicros() int64 { return time.Now().UnixMicro() }

// write runs fn in one transaction under the store's lock. Once begun, a
// write runs to its end even if the client goes away. An error from fn (an
// *apiError included) rolls everything back and is returned as it is.
func (st *store) write(ctx context.Context, fn func(tx *storeTx) error) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	ctx = context.WithoutCancel(ctx)
	if _, err := st.conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return err
	}
	if err := fn(&storeTx{st: st, ctx: ctx}); err != nil {
		if _, rbErr := st.conn.ExecContext(ctx, "ROLLBACK"); rbErr != nil {
			return errors.Join(err, rbErr)
		}
		return err
	}
	if _, err := st.conn.ExecContext(ctx, "COMMIT"); err != nil {
		_, _ = st.conn.ExecContext(ctx, "ROLLBACK")
		return err
	}
	return nil
}

// storeTx is the store inside a write: its methods run in the write's
// transaction.
type storeTx struct {
	st  *store
	ctx context.Context
}

// insert stores rec and sets its ID and timestamps.
func (tx *storeTx) insert(rec *record) error {
	rec.CreatedAt = nowMicros()
	rec.UpdatedAt = rec.CreatedAt
	res, err := tx.st.insert.ExecContext(tx.ctx, rec.Team, rec.Plugin, rec.Enabled, rec.Order, nullString(rec.Name),
		nullString(rec.Description), rec.Deleted, nullJSON(rec.Filters), string(rec.Config), rec.CreatedAt, rec.UpdatedAt)
	if err != nil {
		return err
	}
	rec.ID, err = res.LastInsertId()
	return err
}

// find returns the project's record id, or nil.
func (tx *storeTx) find(team, id int64) (*record, error) { return tx.st.findLocked(tx.ctx, team, id) }

// save writes rec's changeable fields and moves updated_at on.
func (tx *storeTx) save(rec *record) error {
	rec.UpdatedAt = max(nowMicros(), rec.UpdatedAt)
	_, err := tx.st.save.ExecContext(tx.ctx, rec.Enabled, rec.Order, nullString(rec.Name), nullString(rec.Description),
		rec.Deleted, nullJSON(rec.Filters), string(rec.Config), rec.UpdatedAt, rec.ID)
	return err
}

// find returns the project's record id, or nil.
func (st *store) find(ctx context.Context, team, id int64) (*record, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.findLocked(ctx, team, id)
}

func (st *store) findLocked(ctx context.Context, team, id int64) (*record, error) {
	rec, err := scanRecord(st.get.QueryRowContext(ctx, id, team))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return rec, err
}

// changeLog makes the activity entry of a write from the record before
// (nil for a create) and after it; nil logs nothing.
type changeLog func(before, after *record) (*Activity, error)

// create stores rec and logs it, in one transaction.
func (st *store) create(ctx context.Context, rec *record, log changeLog) error {
	return st.write(ctx, func(tx *storeTx) error {
		if err := tx.insert(rec); err != nil {
			return err
		}
		return tx.log(log(nil, rec))
	})
}

// update loads the project's record id, lets change edit it (and write
// more in the same transaction), saves it and logs the change: all or
// nothing, and never a lost update. It returns nil when there is no such
// record; an *apiError from change is returned as it is.
func (st *store) update(ctx context.Context, team, id int64, change func(tx *storeTx, rec *record) error, log changeLog) (*record, error) {
	var saved *record
	err := st.write(ctx, func(tx *storeTx) error {
		rec, err := tx.find(team, id)
		if err != nil || rec == nil {
			return err
		}
		before := *rec
		if err := change(tx, rec); err != nil {
			return err
		}
		if err := tx.save(rec); err != nil {
			return err
		}
		saved = rec
		return tx.log(log(&before, rec))
	})
	if err != nil {
		return nil, err
	}
	return saved, nil
}

// list returns one page of the project's records of plugins (a collection) that
// are not deleted, and their total count, read together.
func (st *store) list(ctx context.Context, plugins []int64, team, limit, offset int64) ([]*record, int64, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	ids, err := json.Marshal(plugins)
	if err != nil {
		return nil, 0, err
	}
	var count int64
	if err := st.count.QueryRowContext(ctx, team, ids).Scan(&count); err != nil {
		return nil, 0, err
	}
	if count == 0 || offset >= count {
		return nil, count, nil
	}
	recs, err := queryAll(ctx, st.page, scanRecord, team, ids, limit, offset)
	return recs, count, err
}

// all returns every config of the project, deleted ones too.
func (st *store) all(ctx context.Context, team int64) ([]*record, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return queryAll(ctx, st.every, scanRecord, team)
}

// queryAll runs stmt with args and scans every row with scan.
func queryAll[T any](ctx context.Context, stmt *sql.Stmt, scan func(scanner) (T, error), args ...any) ([]T, error) {
	rows, err := stmt.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// reorder sets new orders on enabled records of the project in one
// transaction, logs each record it moves, and returns every enabled record
// of the project. decide gets the enabled records by ID and returns the
// orders to write, or an error (an *apiError) that rolls everything back.
func (st *store) reorder(ctx context.Context, team int64, decide func(map[int64]*record) (map[int64]int64, error), log changeLog) ([]*record, error) {
	var recs []*record
	err := st.write(ctx, func(tx *storeTx) error {
		var err error
		if recs, err = queryAll(tx.ctx, st.enabled, scanRecord, team); err != nil {
			return err
		}
		byID := make(map[int64]*record, len(recs))
		for _, r := range recs {
			byID[r.ID] = r
		}
		orders, err := decide(byID)
		if err != nil {
			return err
		}
		now := nowMicros()
		for id, ord := range orders {
			rec := byID[id]
			if rec == nil || rec.Order == ord {
				continue
			}
			before := *rec
			rec.Order, rec.UpdatedAt = ord, max(now, rec.UpdatedAt)
			if _, err := st.setOrder.ExecContext(tx.ctx, ord, rec.UpdatedAt, id); err != nil {
				return err
			}
			if err := tx.log(log(&before, rec)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sortRecords(recs)
	return recs, nil
}

// addJob records a job run.
func (st *store) addJob(ctx context.Context, j JobRun) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	_, err := st.insertJob.ExecContext(context.WithoutCancel(ctx), j.ConfigID, j.Project, j.Type, string(j.Payload), j.Operation, j.At.UnixMicro())
	return err
}

func (st *store) jobRuns(ctx context.Context) ([]JobRun, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return queryAll(ctx, st.jobs, scanJobRun)
}

func scanJobRun(row scanner) (JobRun, error) {
	var j JobRun
	var payload string
	var at int64
	err := row.Scan(&j.ConfigID, &j.Project, &j.Type, &payload, &j.Operation, &at)
	j.Payload, j.At = json.RawMessage(payload), time.UnixMicro(at).UTC()
	return j, err
}

func (st *store) resetJobs(ctx context.Context) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	_, err := st.clearJobs.ExecContext(ctx)
	return err
}
