"""The Novel TCG of seed 003 (`../shared/rules/novel-tcg.md`), v1 scope of §18.6."""
