"""The Discord bot: start-up, configuration, the error funnel and the storage layer."""
