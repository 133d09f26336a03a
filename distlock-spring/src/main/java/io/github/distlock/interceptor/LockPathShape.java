package io.github.distlock.interceptor;

import java.util.List;

/**
 * The paths a template can give, segment by segment, as far as they are known without a
 * call: a literal segment is itself; a segment with a {@code #{...}} part is any
 * non-empty value between the literal text before and after the part (the value is one
 * escaped segment, never several).
 *
 * @param segments the segments, in order
 */
record LockPathShape(List<Segment> segments) {

	/**
	 * Whether this shape and the other are of one family, with a path of this one inside
	 * a path of the other: every one of this shape's segments can equal the other's at
	 * the same place, the other has more segments, and at some place both have the same
	 * literal segment (a shape made only of {@code #{...}} segments, such as
	 * {@code #{#path}}, could be anything, and is left to the check at run time).
	 * @param other the other shape
	 * @return whether a path of this shape can be the parent, grandparent... of one of
	 * the other
	 */
	boolean mayContain(LockPathShape other) {
		if (this.segments.size() >= other.segments.size()) {
			return false;
		}
		boolean anchored = false;
		for (int i = 0; i < this.segments.size(); i++) {
			Segment ours = this.segments.get(i);
			Segment theirs = other.segments.get(i);
			if (!ours.mayEqual(theirs)) {
				return false;
			}
			anchored |= !ours.dynamic() && !theirs.dynamic();
		}
		return anchored;
	}

	/**
	 * Whether the segment right below this shape in the other (which this shape
	 * {@linkplain #mayContain may contain}) can be one of the given names.
	 * @param other the longer shape
	 * @param names literal segment names
	 * @return whether one of them can follow
	 */
	boolean mayBeFollowedBy(LockPathShape other, String... names) {
		Segment next = other.segments.get(this.segments.size());
		for (String name : names) {
			if (next.mayEqual(Segment.literal(name))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * One segment of a shape.
	 *
	 * @param prefix the literal text before the {@code #{...}} part, or the whole segment
	 * if it has none
	 * @param suffix the literal text after the part
	 * @param dynamic whether the segment has a {@code #{...}} part
	 */
	record Segment(String prefix, String suffix, boolean dynamic) {

		static Segment literal(String text) {
			return new Segment(text, "", false);
		}

		boolean mayEqual(Segment other) {
			if (!this.dynamic && !other.dynamic) {
				return this.prefix.equals(other.prefix);
			}
			if (!this.dynamic) {
				return other.matches(this.prefix);
			}
			if (!other.dynamic) {
				return matches(other.prefix);
			}
			// Two parts of any length: a common value exists when neither the texts
			// before nor the texts after contradict each other.
			return (this.prefix.startsWith(other.prefix) || other.prefix.startsWith(this.prefix))
					&& (this.suffix.endsWith(other.suffix) || other.suffix.endsWith(this.suffix));
		}

		private boolean matches(String literal) {
			return literal.length() > this.prefix.length() + this.suffix.length() && literal.startsWith(this.prefix)
					&& literal.endsWith(this.suffix);
		}

		@Override
		public String toString() {
			return this.dynamic ? this.prefix + "*" + this.suffix : this.prefix;
		}

	}

}
