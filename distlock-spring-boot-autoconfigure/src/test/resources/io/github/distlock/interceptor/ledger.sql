create table ledger (id bigint primary key, token bigint not null);
