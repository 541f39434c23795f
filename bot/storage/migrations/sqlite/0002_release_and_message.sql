-- 0002: chips released during a hand to a player who left, and the table's public message.

-- A player who leaves during a hand is folded and his remaining stack is final: it goes back to his
-- balance at once (Storage.release_mid_hand). `released` records how much, so that cancelling the
-- hand after a crash pays him the rest of his start-of-hand stack instead of seating him again,
-- and so that his result in the hand counts what he took with him. NULL: he did not leave.
ALTER TABLE hand_seats ADD COLUMN released INTEGER CHECK (released >= 0);

-- The public message of the table's current (or last) hand, so that a restart can edit it (a
-- cancelled hand must not keep showing a running turn and its buttons). NULL: none posted yet.
ALTER TABLE poker_tables ADD COLUMN message_id INTEGER;
