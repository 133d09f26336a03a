create table account (id bigint primary key, balance int not null);
