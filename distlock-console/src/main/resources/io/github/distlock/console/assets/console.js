// The distlock console: reads api/state every two seconds and draws it; with the admin
// switch on, posts operators' actions to api/<subject>/<action> after a confirmation.
'use strict';

const POLL_MILLIS = 2000;
let state = null;
let lastDrawn = '';

function el(tag, attributes, ...children) {
	const node = document.createElement(tag);
	for (const [name, value] of Object.entries(attributes || {})) {
		if (name === 'onclick') {
			node.addEventListener('click', value);
		}
		else if (value !== null && value !== undefined && value !== false) {
			node.setAttribute(name, value === true ? '' : value);
		}
	}
	for (const child of children.flat()) {
		if (child !== null && child !== undefined) {
			node.append(child instanceof Node ? child : String(child));
		}
	}
	return node;
}

function age(since) {
	const seconds = Math.max(0, Math.round((Date.parse(state.cluster.readAt) - Date.parse(since)) / 1000));
	if (seconds < 120) {
		return seconds + ' s';
	}
	const minutes = Math.round(seconds / 60);
	return minutes < 120 ? minutes + ' min' : Math.round(minutes / 60) + ' h';
}

function time(instant) {
	return instant ? new Date(instant).toLocaleString() : '—';
}

function who(participant) {
	const id = participant.identity;
	if (id && id.app) {
		return `${id.app}@${id.host ?? '?'}:${id.pid ?? '?'} ${id.thread ?? ''}`.trim();
	}
	return participant.description;
}

// The CSRF token: the one the state API gave (Spring Security's), else the XSRF-TOKEN cookie.
function csrfHeaders() {
	if (state && state.csrf) {
		return { [state.csrf.headerName]: state.csrf.token };
	}
	const cookie = document.cookie.split('; ').find((each) => each.startsWith('XSRF-TOKEN='));
	return cookie ? { 'X-XSRF-TOKEN': decodeURIComponent(cookie.substring('XSRF-TOKEN='.length)) } : {};
}

function say(text, error) {
	const message = document.getElementById('message');
	message.textContent = text;
	message.classList.toggle('error', !!error);
}

function confirmThen(question, action) {
	const dialog = document.getElementById('confirm');
	document.getElementById('confirm-text').textContent = question;
	dialog.returnValue = '';
	dialog.addEventListener('close', function closed() {
		if (dialog.returnValue === 'ok') {
			action();
		}
	}, { once: true });
	dialog.showModal();
}

async function act(label, subject, action, body) {
	say(label + '…');
	try {
		const response = await fetch(`api/${subject}/${action}`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', 'Accept': 'application/json', ...csrfHeaders() },
			body: JSON.stringify(body || {}),
		});
		const answer = await response.json().catch(() => ({}));
		if (response.ok) {
			say(label + ': done.');
		}
		else {
			say(`${label} failed (${response.status}): ${answer.detail || answer.message || response.statusText}`, true);
		}
	}
	catch (failure) {
		say(`${label} failed: ${failure}`, true);
	}
	refresh();
}

// A button whose action runs once confirmed; its label names what it acts on for screen readers.
function button(text, label, question, onConfirm, warn) {
	return el('button', { type: 'button', class: warn ? 'warn' : null, 'aria-label': label,
		onclick: () => confirmThen(question, onConfirm) }, text);
}

function drawLocks(locks) {
	document.getElementById('locks-count').textContent = `(${locks.length})`;
	if (locks.length === 0) {
		return el('p', { class: 'empty' }, 'No lock is held or awaited.');
	}
	return locks.map((lock) => el('article', { class: 'lock', 'data-lock': lock.path, 'aria-label': 'Lock ' + lock.path },
		el('h3', {}, el('code', {}, lock.path), el('span', { class: 'protocol' }, lock.protocol)),
		el('ol', { class: 'queue' },
			lock.holders.map((holder) => el('li', { class: 'holder', 'data-token': holder.fencingToken },
				el('span', { class: 'role' }, 'holds'), el('span', { class: 'who' }, who(holder)),
				el('div', { class: 'facts' },
					el('span', {}, 'token ' + holder.fencingToken),
					el('span', { 'data-age': holder.createdAt }, 'for ' + age(holder.createdAt)),
					holder.side ? el('span', {}, holder.side) : null,
					el('span', {}, 'session ' + holder.session)),
				state.admin ? el('div', { class: 'actions' },
					button('Ask to release', `Ask the holders of ${lock.path} to release`,
						`Ask every holder of ${lock.path} (${lock.protocol}) to release it?`,
						() => act('Request release of ' + lock.path, 'locks', 'request-release',
							{ path: lock.path, protocol: lock.protocol })),
					button('Force release', `Force release ${lock.path} from token ${holder.fencingToken}`,
						`Remove the holder of ${lock.path} with token ${holder.fencingToken}? `
						+ 'Its fenced writes will be refused; the first waiter gets the lock.',
						() => act('Force release of ' + lock.path, 'locks', 'force-release',
							{ path: lock.path, protocol: lock.protocol, token: holder.fencingToken }), true)) : null)),
			lock.waiters.map((waiter, index) => el('li', { class: 'waiter' },
				el('span', { class: 'role' }, 'waits #' + (index + 1)), el('span', { class: 'who' }, who(waiter)),
				el('div', { class: 'facts' },
					el('span', { 'data-age': waiter.createdAt }, 'for ' + age(waiter.createdAt)),
					waiter.side ? el('span', {}, waiter.side) : null,
					el('span', {}, 'session ' + waiter.session)))))));
}

function drawDeadlocks(cycles) {
	if (cycles.length === 0) {
		return el('p', { class: 'empty' }, 'No deadlock between holders.');
	}
	return cycles.map((cycle) => el('div', { class: 'cycle', role: 'alert' },
		el('strong', {}, 'Deadlock: '),
		el('ul', {}, cycle.map((edge) => el('li', {}, `${edge.waiter} waits at ${edge.path} (${edge.protocol}) for `
			+ edge.holder)))));
}

function drawLeaders(elections) {
	if (elections.length === 0) {
		return el('p', { class: 'empty' }, 'No leader election has members.');
	}
	return el('table', {},
		el('thead', {}, el('tr', {}, ['Group', 'Leader', 'Epoch', 'Members'].map((name) => el('th', { scope: 'col' }, name)))),
		el('tbody', {}, elections.map((election) => el('tr', { 'data-group': election.group },
			el('th', { scope: 'row' }, el('code', {}, election.group)),
			el('td', {}, election.members.length ? who(election.members[0]) : '—'),
			el('td', {}, election.epoch),
			el('td', {}, el('ol', {}, election.members.map((member) => el('li', {}, who(member),
				el('span', { class: 'facts' }, ' · session ' + member.session)))))))));
}

function drawJobs(jobs) {
	if (jobs.length === 0) {
		return el('p', { class: 'empty' }, 'This instance schedules no job.');
	}
	const headings = ['Job', 'Schedule', 'State', 'Last run', 'Next slot'].concat(state.admin ? ['Actions'] : []);
	return el('table', {},
		el('thead', {}, el('tr', {}, headings.map((name) => el('th', { scope: 'col' }, name)))),
		el('tbody', {}, jobs.map((job) => el('tr', { 'data-job': job.name, 'data-paused': String(job.paused) },
			el('th', { scope: 'row' }, el('code', {}, job.name)),
			el('td', {}, job.schedule),
			el('td', {}, job.paused ? el('span', { class: 'badge paused' }, 'paused')
				: el('span', { class: 'badge ok' }, 'active'), job.error ? el('div', { class: 'facts' }, job.error) : null),
			el('td', {}, job.lastRun ? [job.lastRun.outcome.toLowerCase() + ' on ' + job.lastRun.node,
				el('div', { class: 'facts' }, time(job.lastRun.startedAt))] : '—'),
			el('td', {}, time(job.nextSlot)),
			state.admin ? el('td', {}, el('div', { class: 'actions' },
				button('Run now', `Run ${job.name} now`,
					`Run ${job.name} now on this instance, outside its schedule?`,
					() => act('Run of ' + job.name, 'jobs', 'run-now', { job: job.name })),
				job.paused
					? button('Resume', `Resume ${job.name}`, `Resume ${job.name} on every instance?`,
						() => act('Resume of ' + job.name, 'jobs', 'resume', { job: job.name }))
					: button('Pause', `Pause ${job.name}`, `Pause ${job.name} on every instance?`,
						() => act('Pause of ' + job.name, 'jobs', 'pause', { job: job.name }), true))) : null))));
}

function drawInstance() {
	const cluster = state.cluster;
	const instance = document.getElementById('instance');
	const held = state.held.length === 1 ? '1 lock held here' : `${state.held.length} locks held here`;
	instance.replaceChildren(...el('span', {},
		cluster && cluster.draining ? el('span', { class: 'badge draining' }, 'this instance is draining')
			: el('span', { class: 'badge ok' }, 'this instance takes locks'),
		' ', held, ' ',
		cluster && cluster.error ? el('span', { class: 'badge bad' }, 'ZooKeeper: ' + cluster.error) : null).childNodes);
	const actions = document.getElementById('instance-actions');
	actions.hidden = !state.admin;
	document.getElementById('drain').hidden = !!(cluster && cluster.draining);
	document.getElementById('undrain').hidden = !(cluster && cluster.draining);
}

function draw() {
	const cluster = state.cluster || { locks: [], deadlocks: [], elections: [] };
	document.getElementById('locks').replaceChildren(...[drawLocks(cluster.locks)].flat());
	document.getElementById('deadlocks').replaceChildren(...[drawDeadlocks(cluster.deadlocks)].flat());
	document.getElementById('leaders').replaceChildren(drawLeaders(cluster.elections));
	document.getElementById('jobs').replaceChildren(drawJobs(state.jobs));
	drawInstance();
}

// Redraws only what changed: buttons keep their focus between polls when nothing did.
function updateAges() {
	for (const node of document.querySelectorAll('[data-age]')) {
		node.textContent = 'for ' + age(node.getAttribute('data-age'));
	}
}

// Fencing tokens and epochs are 64-bit: read as text, so that one above 2^53 is shown and sent back exactly.
function exactNumbers(json) {
	return json.replace(/"(fencingToken|epoch)":(-?\d+)/g, '"$1":"$2"');
}

async function refresh() {
	try {
		const response = await fetch('api/state', { headers: { 'Accept': 'application/json' } });
		if (!response.ok) {
			throw new Error('HTTP ' + response.status);
		}
		state = JSON.parse(exactNumbers(await response.text()));
		const drawn = JSON.stringify({ ...state, csrf: null, cluster: state.cluster && { ...state.cluster, readAt: null } });
		if (drawn !== lastDrawn && !document.getElementById('confirm').open) {
			lastDrawn = drawn;
			draw();
		}
		else {
			updateAges();
		}
		document.getElementById('refreshed').textContent = 'last read ' + new Date().toLocaleTimeString();
	}
	catch (failure) {
		say('Cannot read the console\'s state: ' + failure.message, true);
	}
}

document.addEventListener('DOMContentLoaded', () => {
	document.getElementById('drain').addEventListener('click', () => {
		const wait = document.getElementById('drain-wait').value;
		confirmThen('Drain this instance? New acquisitions here fail at once and its leaderships are handed over.',
			() => act('Drain', 'instance', 'drain', wait ? { waitTime: wait } : {}));
	});
	document.getElementById('undrain').addEventListener('click', () => confirmThen(
		'Undrain this instance? It takes locks again.', () => act('Undrain', 'instance', 'undrain', {})));
	refresh();
	setInterval(refresh, POLL_MILLIS);
});
