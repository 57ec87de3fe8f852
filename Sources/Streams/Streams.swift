// The Combine-shaped publisher/subscriber framework arrives with the Streams issue.
