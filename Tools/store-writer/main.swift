// Replaced by the store work: writes autosaves into a store from its own process.
print("store-writer")
