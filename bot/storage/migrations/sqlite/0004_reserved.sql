-- 0004: reserved for the turn calls and the fair deck, which land on another branch with their own
-- 0004 file. This placeholder only keeps the numbering without gaps until then: when that file
-- arrives, delete this one (two files numbered 0004 stop the bot at start-up, by design).
SELECT 1;
