-- distlock's fence table: the newest fencing token a committed fenced transaction carried, per lock.
-- lock_path is the lock's kind and path as under the lock root, such as 'mutex/orders/42'.
CREATE TABLE IF NOT EXISTS distlock_fence (
	lock_path VARCHAR(1100) NOT NULL PRIMARY KEY,
	token BIGINT NOT NULL,
	updated_at TIMESTAMP NOT NULL
);
