package io.github.distlock.history;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The catalogue of defects the history checker's planted runs put into the engine: each
 * is a line (or a short fragment) of an engine source file, given by its exact text, and
 * what replaces it. {@link PatchedEngine} applies the patches to a copy of the source,
 * compiles it and runs code against it in a class loader of its own; the product never
 * reads anything. A patch whose original text is not in its file exactly once fails the
 * run: the catalogue follows the product.
 * <p>
 * Each defect says how a checker run is set up to find it and which kinds of violation
 * count as finding it (docs/failure-model.md, "Planted runs"); a defect no random history
 * reaches within a short run names the deterministic test that stands for it instead.
 */
public enum PlantedDefect {

	/**
	 * Both downgrade guards removed: a write hold lost or in doubt is entered for
	 * reading, when asked and at grant.
	 */
	DOWNGRADE("downgrade", Setup.USUAL, Set.of("overlap", "token order"), Patches.DOWNGRADE_WHEN_ASKED,
			Patches.DOWNGRADE_AT_GRANT),

	/**
	 * Nodes at the ceiling of sequence numbers sorted by their protected-mode UUID
	 * instead of their creation zxid ({@code QueueDriver}).
	 */
	CEILING("ceiling", Setup.CEILING, Set.of("overlap", "token order"),
			new Patch("QueueDriver.java", "Long czxid = czxids.get(node);", "Long czxid = 0L;")),

	/**
	 * (c) The downgrade guard at grant removed alone ({@code QueuePosition}): a read node
	 * is granted to a downgrade whose write hold was lost after it was asked for.
	 */
	DOWNGRADE_AT_GRANT("downgrade-at-grant", Setup.USUAL, Set.of("overlap", "token order"), Patches.DOWNGRADE_AT_GRANT),

	/**
	 * A waiting latch member whose client replaced its session resumes with its node of
	 * the old session instead of making it anew ({@code QueuePosition}).
	 */
	RESUME_OLD_SESSION_NODE("resume-old-session-node", Setup.USUAL, Set.of(),
			new Patch("QueuePosition.java", "&& this.our.isOfOtherHandle(this.engine.session().clientInstance())) {",
					"&& false) {")),

	/**
	 * (d) A latch member whose session was lost forgets its node without deleting it: its
	 * new node queues behind its own stale one ({@code Participant}).
	 */
	LOST_KEEPS_OLD_NODE("lost-keeps-old-node", Setup.USUAL, Set.of(),
			new Patch("Participant.java",
					"\t\tthis.nodeWatch.unwatch(node);\n"
							+ "\t\tthis.engine.requests().deleteInBackground(node.path());\n\t}\n\n\t// The queue",
					"\t}\n\n\t// The queue")),

	/**
	 * (e) The lone rule does not heed its parent's delete or data change
	 * ({@code LoneQueues}): a parent deleted and made again may restart its count and
	 * give a new node the number that proves it alone.
	 */
	PARENT_WATCH_IGNORED("parent-watch-ignored", Setup.LONE_PARENTS, Set.of("overlap", "token order"),
			new Patch("LoneQueues.java",
					"\t\t\tif (queue.watch != watch) {\n\t\t\t\treturn;\n\t\t\t}\n\t\t\tqueue.watch = null;",
					"\t\t\tif (queue.watch != watch || event.getType() != Watcher.Event.EventType.None) {\n"
							+ "\t\t\t\treturn;\n\t\t\t}\n\t\t\tqueue.watch = null;")),

	/**
	 * (a) A hold ignores its session's loss ({@code Hold.Node}): the end of the session
	 * that owns the node does not mark it lost, nor tell the loss listeners; only asking
	 * its state still finds the session replaced.
	 */
	HOLD_IGNORES_LOSS("hold-ignores-loss", Setup.USUAL, Set.of("loss untold"),
			new Patch("Hold.java", "\t\tprivate void endWithSession() {\n\t\t\tend();\n",
					"\t\tprivate void endWithSession() {\n")),

	/**
	 * (b) A lost hold reports HELD ({@code Hold.Node}): its state check answers held once
	 * it is lost, and no longer checks the node's session.
	 */
	LOST_HOLD_REPORTS_HELD("lost-hold-reports-held", Setup.USUAL, Set.of("state after loss"),
			new Patch("Hold.java", "judged = (isOn() && !isOfSessionInUse()) ? LockState.LOST : this.state;",
					"judged = (this.state == LockState.LOST) ? LockState.HELD : this.state;")),

	/**
	 * (f) A latch member whose waiting node vanished (deleted by another client, or gone
	 * with a replaced session) does not queue again ({@code Participant}): it stays
	 * joined without a node, out of the election.
	 */
	LATCH_NODE_NOT_MADE_AGAIN("latch-node-not-made-again", Setup.USUAL, Set.of("latch presence", "liveness"),
			new Patch("Participant.java", "\t\treturn this.joined && position == this.position;\n",
					"\t\treturn false;\n"),
			new Patch("Participant.java",
					"\t\t\tthis.position = null;\n\t\t\tif (this.joined) {\n\t\t\t\tqueue();\n\t\t\t}\n\t\t}\n\t}\n\n"
							+ "\t@Override\n\tpublic void failed(",
					"\t\t\tthis.position = null;\n\t\t}\n\t}\n\n\t@Override\n\tpublic void failed(")),

	/**
	 * (g) A partition taken before its old owner gave it up ({@code PartitionGroup}): the
	 * desired owner deletes another member's owner node as soon as it reads it, instead
	 * of waiting for that owner to tell its listeners and delete it, then creates its
	 * own.
	 */
	PARTITION_TAKEN_EARLY("partition-taken-early", Setup.USUAL, Set.of("two owners", "epoch order"), new Patch(
			"PartitionGroup.java",
			"\t\tif (this.joined && this.memberId.equals(desired) && this.members.isMember() && this.ownerRead[index]\n",
			"\t\tif (this.joined && this.memberId.equals(desired) && this.members.isMember() && this.ownerRead[index]\n"
					+ "\t\t\t\t&& this.owners[index] != null && !this.owners[index].equals(this.memberId)) {\n"
					+ "\t\t\tthis.engine.requests().deleteConfirmed(this.ownerNodes.path(index));\n\t\t}\n"
					+ "\t\tif (this.joined && this.memberId.equals(desired) && this.members.isMember() && this.ownerRead[index]\n"));

	private final String id;

	private final Setup setup;

	private final Set<String> finding;

	private final List<Patch> patches;

	PlantedDefect(String id, Setup setup, Set<String> finding, Patch... patches) {
		this.id = id;
		this.setup = setup;
		this.finding = finding;
		this.patches = List.of(patches);
	}

	/** The defect's name on the command line. */
	public String id() {
		return this.id;
	}

	/** The lines it changes. */
	public List<Patch> patches() {
		return this.patches;
	}

	/**
	 * The defect of a name.
	 * @param id its name
	 * @return the defect
	 */
	public static PlantedDefect of(String id) {
		return Arrays.stream(values())
			.filter((defect) -> defect.id.equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("No such planted defect: " + id + "; known: "
					+ Arrays.stream(values()).map(PlantedDefect::id).toList()));
	}

	/**
	 * The deterministic test that stands for the defect where the checker's random
	 * histories seldom reach it (docs/failure-model.md, "Planted runs"), if any: it fails
	 * every time with the defect planted.
	 * @return the test, or {@code null}
	 */
	public @Nullable String standIn() {
		return (this == DOWNGRADE_AT_GRANT)
				? "DowngradeSafetyTests#withoutTheGrantsCheckTheSameDowngradeIsGrantedBesideTheOtherWriter" : null;
	}

	/** Whether a violation of a kind shows the defect (any kind, if none is named). */
	boolean foundBy(String category) {
		return this.finding.isEmpty() || this.finding.contains(category);
	}

	/** The checker run that looks for it. */
	CheckerRun checkerRun(long seed, Duration duration) {
		CheckerRun.Settings usual = new CheckerRun.Settings(seed, duration, 3, 3, 2, 2, true, true);
		return switch (this.setup) {
			case USUAL -> new CheckerRun(usual);
			case CEILING -> new CheckerRun(new CheckerRun.Settings(seed, duration, 1, usual.distlockNodes(),
					usual.actorsPerNode(), 0, true, usual.leadership()))
				.withQueuesAtCeiling();
			case LONE_PARENTS -> new CheckerRun(usual).withParentsMadeAgain();
		};
	}

	/**
	 * One change of an engine source file.
	 *
	 * @param file the file's name in the engine's package
	 * @param original the exact text it changes, which must be in the file exactly once
	 * @param replacement what replaces it
	 */
	public record Patch(String file, String original, String replacement) {
	}

	/** How the run that looks for a defect is set up. */
	enum Setup {

		/** The short run's settings, with another seed. */
		USUAL,

		/**
		 * One server, no raw Curator actor, every queue at the ceiling of sequence
		 * numbers.
		 */
		CEILING,

		/**
		 * The short run's settings, and the fault that deletes a busy mutex queue's
		 * parent and makes it again at a chosen number.
		 */
		LONE_PARENTS

	}

	private static final class Patches {

		static final Patch DOWNGRADE_WHEN_ASKED = new Patch("CuratorLock.java", "if (state != LockState.HELD) {",
				"if (false) {");

		static final Patch DOWNGRADE_AT_GRANT = new Patch("QueuePosition.java",
				"LockLostException lost = (this.downgrade != null) ? this.downgrade.lostAtGrant(",
				"LockLostException lost = (false) ? this.downgrade.lostAtGrant(");

	}

}
