# The bot in a container; games live in SQLite on the /data volume.
#   docker build -t cardtable .
#   docker run -d --env-file .env -v cardtable-data:/data cardtable
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/cardtable.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot.py config.py ./
COPY engine ./engine
COPY cogs ./cogs
COPY db ./db
COPY docs ./docs
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 1000 bot \
    && mkdir -p /data && chown bot /data

USER bot
VOLUME ["/data"]
CMD ["python", "bot.py"]
